import { parseArguments } from './chat-tool-rounds.js';
import { isCallItem, relayResponsesRounds } from './responses-stream-rounds.js';
import { objectOf } from './tool-definitions.js';
import type { ReplyToolCall, ToolRounds } from './wire-protocol.js';

/** Tool rounds on the Responses API: `function_call` output items, `function_call_output` items in the next input. */
export const responsesToolRounds: ToolRounds = {
  callsOf(reply) {
    return outputOf(reply).flatMap((item): ReplyToolCall[] => {
      if (item['type'] !== 'function_call') return [];
      return [{ id: String(item['call_id']), name: String(item['name']), input: parseArguments(item['arguments']) }];
    });
  },
  continueWith(body, reply, answers) {
    const input = typeof body['input'] === 'string' ? [{ role: 'user', content: body['input'] }] : body['input'];
    return {
      ...body,
      input: [
        ...(Array.isArray(input) ? (input as unknown[]) : []),
        ...outputOf(reply).map(asInputItem),
        ...answers.map((answer) => ({ type: 'function_call_output', call_id: answer.callId, output: answer.output })),
      ],
    };
  },
  joinRounds(earlier, final) {
    const reply = objectOf(final);
    if (reply === undefined || !Array.isArray(reply['output'])) return final;
    const said = earlier.flatMap((round) => outputOf(round).filter((item) => !isCallItem(item)));
    return { ...reply, output: [...said, ...(reply['output'] as unknown[])] };
  },
  relayStream: relayResponsesRounds,
};

function outputOf(reply: unknown): Record<string, unknown>[] {
  const output: unknown = objectOf(reply)?.['output'];
  if (!Array.isArray(output)) return [];
  return (output as unknown[]).flatMap((item): Record<string, unknown>[] => {
    const object = objectOf(item);
    return object === undefined ? [] : [object];
  });
}

/** An output item sent back as input: a message or call without its server id (not stored when `store` is false). */
function asInputItem(item: Record<string, unknown>): Record<string, unknown> {
  if (item['type'] === 'reasoning') return item;
  const { id: _id, ...rest } = item;
  return rest;
}
