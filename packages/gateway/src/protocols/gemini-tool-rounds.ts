import type { JsonValue } from '@ctxhost/core';
import { callOf, relayGeminiRounds } from './gemini-stream-rounds.js';
import { objectOf } from './tool-definitions.js';
import type { ReplyToolCall, ToolRounds } from './wire-protocol.js';

/** Tool rounds on generateContent: `functionCall` parts in the candidate, `functionResponse` parts in the next user content. */
export const geminiToolRounds: ToolRounds = {
  callsOf(reply) {
    return partsOf(reply).flatMap((part): ReplyToolCall[] => {
      const call = callOf(part);
      if (call === undefined) return [];
      const name = String(call['name']);
      // A call without an id is answered by its name.
      const id = typeof call['id'] === 'string' ? call['id'] : name;
      return [{ id, name, input: (objectOf(call['args']) ?? {}) as JsonValue }];
    });
  },
  continueWith(body, reply, answers) {
    const contents = Array.isArray(body['contents']) ? (body['contents'] as unknown[]) : [];
    const calls = geminiToolRounds.callsOf(reply);
    const responses = answers.map((answer) => {
      const call = calls.find((each) => each.id === answer.callId);
      const withId = call !== undefined && call.id !== call.name ? { id: call.id } : {};
      const response = answer.isError === true ? { error: answer.output } : { output: answer.output };
      return { functionResponse: { ...withId, name: call?.name ?? answer.callId, response } };
    });
    return {
      ...body,
      contents: [...contents, { role: 'model', parts: partsOf(reply) }, { role: 'user', parts: responses }],
    };
  },
  joinRounds(earlier, final) {
    const reply = objectOf(final);
    const candidates: unknown = reply?.['candidates'];
    const candidate = Array.isArray(candidates) ? objectOf(candidates[0]) : undefined;
    const content = objectOf(candidate?.['content']);
    if (reply === undefined || candidate === undefined || content === undefined) return final;
    const said = earlier.flatMap((round) => partsOf(round).filter((part) => callOf(part) === undefined));
    const parts = [...said, ...partsOf(final)];
    return {
      ...reply,
      candidates: [{ ...candidate, content: { ...content, parts } }, ...(candidates as unknown[]).slice(1)],
    };
  },
  relayStream: relayGeminiRounds,
};

/** The first candidate's parts. */
export function partsOf(reply: unknown): Record<string, unknown>[] {
  const candidates: unknown = objectOf(reply)?.['candidates'];
  const parts: unknown = Array.isArray(candidates)
    ? objectOf(objectOf(candidates[0])?.['content'])?.['parts']
    : undefined;
  if (!Array.isArray(parts)) return [];
  return (parts as unknown[]).flatMap((part): Record<string, unknown>[] => {
    const object = objectOf(part);
    return object === undefined ? [] : [object];
  });
}
