import { ORIGINAL_TOOL_NAME, type EngineToolResult, type JsonValue } from '@ctxhost/core';
import type { JsonObject, ReplyToolCall, ToolCallAnswer, ToolRounds } from './protocols/wire-protocol.js';

/** How many times the gateway asks the upstream again for one request before it relays what it has. */
export const MAX_ORIGINAL_ROUNDS = 4;

/** What a complete reply round gives: the status and headers, the body as text and parsed. */
export interface CompleteRound {
  status: number;
  headers: Record<string, string | string[]>;
  text: string;
  reply: unknown;
}

/**
 * The answers to a reply's tool calls when it calls `ctxhost_original`, or undefined when it does not.
 * The client's own tools in the same reply are not run (the client never sees this reply): the model is
 * told so and calls them again once it has read the original.
 */
export async function answerOriginalCalls(
  calls: readonly ReplyToolCall[],
  readOriginal: (input: JsonValue) => Promise<EngineToolResult>,
): Promise<ToolCallAnswer[] | undefined> {
  if (!calls.some((call) => call.name === ORIGINAL_TOOL_NAME)) return undefined;
  return Promise.all(
    calls.map(async (call): Promise<ToolCallAnswer> => {
      if (call.name !== ORIGINAL_TOOL_NAME)
        return {
          callId: call.id,
          output: `Not run: ${ORIGINAL_TOOL_NAME} was answered first. Call ${call.name} again if you still need it.`,
          isError: true,
        };
      const result = await readOriginal(call.input);
      return { callId: call.id, output: result.output, ...(result.isError === true ? { isError: true } : {}) };
    }),
  );
}

/**
 * Answers the gateway's own tool in a complete reply and asks the upstream again, until a reply calls
 * only the client's tools or none (at most `MAX_ORIGINAL_ROUNDS` times). An upstream error on the way is
 * relayed as the provider gave it.
 */
export async function runOriginalRounds(
  rounds: ToolRounds,
  body: JsonObject,
  first: CompleteRound,
  readOriginal: (input: JsonValue) => Promise<EngineToolResult>,
  ask: (body: JsonObject) => Promise<CompleteRound>,
): Promise<CompleteRound> {
  let reply = first;
  let sent = body;
  const earlier: unknown[] = [];
  for (let round = 0; round < MAX_ORIGINAL_ROUNDS && reply.status < 300; round++) {
    const answers = await answerOriginalCalls(rounds.callsOf(reply.reply), readOriginal);
    if (answers === undefined) break;
    sent = rounds.continueWith(sent, reply.reply, answers);
    earlier.push(reply.reply);
    reply = await ask(sent);
  }
  if (earlier.length === 0 || reply.status >= 300 || reply.reply === undefined) return reply;
  const joined = rounds.joinRounds(earlier, reply.reply, ORIGINAL_TOOL_NAME);
  return { ...reply, reply: joined, text: JSON.stringify(joined) };
}
