import type { ServerResponse } from 'node:http';
import { openRelay, sseEvents } from './sse-events.js';
import { objectOf } from './tool-definitions.js';
import type { StreamRoundOptions } from './wire-protocol.js';

/** Between the texts of two rounds (the client sees them as one message). */
export const ROUND_SEPARATOR = '\n\n';

/** A tool call as its deltas built it. */
interface StreamedCall {
  id: string;
  name: string;
  arguments: string;
}

type RoundEnd =
  { kind: 'done' } | { kind: 'answer'; reply: unknown; finish: Record<string, unknown>; held: StreamedCall[] };

/** What the client has been sent so far, across rounds. */
interface RelayState {
  /** The first round's completion id: every relayed chunk carries it, so the client reads one completion. */
  id: string | undefined;
  saidText: boolean;
}

/**
 * Relays a streamed Chat Completion chunk by chunk, holding back the tool-call deltas until the round
 * ends; when the round called the gateway's own tool, asks the upstream again through `next` and relays
 * the next round's chunks as more of the same completion (its text token by token).
 */
export async function relayChatRounds(
  first: Response,
  response: ServerResponse,
  options: StreamRoundOptions,
): Promise<void> {
  const write = openRelay(first, response);
  const state: RelayState = { id: undefined, saidText: false };
  let upstream = first;
  for (let round = 0; ; round++) {
    const end = await relayRound(upstream, round, round < options.maxRounds, state, options, write);
    if (end.kind === 'done' || response.destroyed) break;
    const next = await options.next(end.reply).catch(() => undefined);
    if (next !== undefined && next.ok && next.body !== null) {
      upstream = next;
      continue;
    }
    // The next round could not be had: end the completion with what the client has, and the calls it can run itself.
    if (next !== undefined) await next.body?.cancel().catch(() => undefined);
    const theirs = end.held.filter((call) => call.name !== options.toolName);
    for (const text of callChunks(end.finish, theirs, state)) await write(text);
    await write(finishChunk(end.finish, theirs.length > 0 ? 'tool_calls' : 'stop', state));
    await write('data: [DONE]\n\n');
    break;
  }
  response.end();
}

async function relayRound(
  upstream: Response,
  round: number,
  answerCalls: boolean,
  state: RelayState,
  options: StreamRoundOptions,
  write: (text: string) => Promise<void>,
): Promise<RoundEnd> {
  const calls = new Map<number, StreamedCall>();
  let text = '';
  let separated = round === 0 || !state.saidText;
  let finish: Record<string, unknown> | undefined;
  const ours = () => answerCalls && [...calls.values()].some((call) => call.name === options.toolName);
  for await (const event of sseEvents(upstream)) {
    const chunk = event.data;
    if (chunk === undefined) {
      // `[DONE]`: the round is over.
      if (finish !== undefined && ours()) {
        const toolCalls = [...calls.values()].map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.arguments },
        }));
        const message = { role: 'assistant', content: text.length > 0 ? text : null, tool_calls: toolCalls };
        return { kind: 'answer', reply: { choices: [{ message }] }, finish, held: [...calls.values()] };
      }
      await write(event.raw);
      continue;
    }
    state.id ??= typeof chunk['id'] === 'string' ? chunk['id'] : undefined;
    if (chunk['usage'] !== undefined && chunk['usage'] !== null) options.onUsageEvent(chunk);
    const choice = Array.isArray(chunk['choices']) ? objectOf(chunk['choices'][0]) : undefined;
    if (choice === undefined) {
      // The usage chunk (after the finish): the client gets the last round's.
      if (!(finish !== undefined && ours())) await write(serialize(chunk, state));
      continue;
    }
    const delta = { ...objectOf(choice['delta']) };
    for (const piece of Array.isArray(delta['tool_calls']) ? (delta['tool_calls'] as unknown[]) : [])
      addCallDelta(calls, objectOf(piece));
    delete delta['tool_calls'];
    if (round > 0) delete delta['role'];
    if (typeof delta['content'] === 'string' && delta['content'].length > 0) {
      text += delta['content'];
      if (!separated) delta['content'] = `${ROUND_SEPARATOR}${delta['content']}`;
      separated = true;
      state.saidText = true;
    }
    const says = Object.entries(delta).some(([key, value]) => value !== null && !(key === 'content' && value === ''));
    const finishReason = choice['finish_reason'];
    if (says || (round === 0 && 'role' in delta))
      await write(serialize({ ...chunk, choices: [{ ...choice, delta, finish_reason: null }] }, state));
    if (finishReason === null || finishReason === undefined) continue;
    finish = chunk;
    if (ours()) continue;
    for (const piece of callChunks(chunk, [...calls.values()], state)) await write(piece);
    await write(serialize({ ...chunk, choices: [{ ...choice, delta: {} }] }, state));
  }
  return { kind: 'done' };
}

/** Builds a call from its deltas: the first names it (with its id), the rest add to its arguments. */
function addCallDelta(calls: Map<number, StreamedCall>, piece: Record<string, unknown> | undefined): void {
  if (piece === undefined) return;
  const index = typeof piece['index'] === 'number' ? piece['index'] : calls.size;
  const fn = objectOf(piece['function']);
  const call = calls.get(index) ?? { id: '', name: '', arguments: '' };
  if (typeof piece['id'] === 'string') call.id = piece['id'];
  if (typeof fn?.['name'] === 'string') call.name += fn['name'];
  if (typeof fn?.['arguments'] === 'string') call.arguments += fn['arguments'];
  calls.set(index, call);
}

/** Held calls as chunks the client reads, numbered from 0. */
function callChunks(template: Record<string, unknown>, calls: readonly StreamedCall[], state: RelayState): string[] {
  return calls.map((call, index) =>
    serialize(
      {
        ...template,
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [
                { index, id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } },
              ],
            },
            logprobs: null,
            finish_reason: null,
          },
        ],
      },
      state,
    ),
  );
}

function finishChunk(template: Record<string, unknown>, reason: string, state: RelayState): string {
  return serialize({ ...template, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: reason }] }, state);
}

function serialize(chunk: Record<string, unknown>, state: RelayState): string {
  return `data: ${JSON.stringify(state.id === undefined ? chunk : { ...chunk, id: state.id })}\n\n`;
}
