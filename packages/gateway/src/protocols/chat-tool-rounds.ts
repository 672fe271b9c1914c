import type { JsonValue } from '@ctxhost/core';
import { relayChatRounds, ROUND_SEPARATOR } from './chat-stream-rounds.js';
import { objectOf } from './tool-definitions.js';
import type { ReplyToolCall, ToolRounds } from './wire-protocol.js';

/** Tool rounds on Chat Completions: `tool_calls` on the reply's message, one `tool` message per call in the next request. */
export const chatToolRounds: ToolRounds = {
  callsOf(reply) {
    const calls = messageOf(reply)?.['tool_calls'];
    if (!Array.isArray(calls)) return [];
    return calls.flatMap((call): ReplyToolCall[] => {
      const object = objectOf(call);
      const fn = objectOf(object?.['function']);
      if (object === undefined || fn === undefined) return [];
      return [{ id: String(object['id']), name: String(fn['name']), input: parseArguments(fn['arguments']) }];
    });
  },
  continueWith(body, reply, answers) {
    const messages = Array.isArray(body['messages']) ? (body['messages'] as unknown[]) : [];
    return {
      ...body,
      messages: [
        ...messages,
        messageOf(reply) ?? { role: 'assistant', content: null },
        ...answers.map((answer) => ({ role: 'tool', tool_call_id: answer.callId, content: answer.output })),
      ],
    };
  },
  joinRounds(earlier, final) {
    const reply = objectOf(final);
    const choices: unknown = reply?.['choices'];
    const message = messageOf(final);
    if (reply === undefined || !Array.isArray(choices) || message === undefined) return final;
    const said = earlier.map((round) => messageOf(round)?.['content']).filter(isText);
    const content = joinTexts([...said, ...(isText(message['content']) ? [message['content']] : [])]);
    return {
      ...reply,
      choices: [{ ...objectOf(choices[0]), message: { ...message, content } }, ...(choices as unknown[]).slice(1)],
    };
  },
  relayStream: relayChatRounds,
};

function joinTexts(texts: readonly string[]): string | null {
  return texts.length === 0 ? null : texts.join(ROUND_SEPARATOR);
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** The first choice's message of a complete reply. */
function messageOf(reply: unknown): Record<string, unknown> | undefined {
  const choices = objectOf(reply)?.['choices'];
  return Array.isArray(choices) ? objectOf(objectOf(choices[0])?.['message']) : undefined;
}

/** A call's arguments (a JSON text) as its input; unreadable arguments are the empty input. */
export function parseArguments(text: unknown): JsonValue {
  try {
    return (objectOf(JSON.parse(String(text))) ?? {}) as JsonValue;
  } catch {
    return {};
  }
}
