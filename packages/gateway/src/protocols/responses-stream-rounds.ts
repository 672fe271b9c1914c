import type { ServerResponse } from 'node:http';
import { openRelay, sseEvents, type SseEvent } from './sse-events.js';
import { objectOf } from './tool-definitions.js';
import type { StreamRoundOptions } from './wire-protocol.js';

/** One output item of a round as it streamed in: relayed under the client's index, or its events held. */
interface RoundItem {
  item: Record<string, unknown>;
  relayedAs?: number;
  held: SseEvent[];
}

type RoundEnd = { kind: 'done' } | { kind: 'answer'; reply: unknown; finished: SseEvent; held: RoundItem[] };

/** What the client has been sent so far, across rounds. */
interface RelayState {
  /** The first round's response id: the client reads one response. */
  id: string | undefined;
  sequence: number;
  /** The output items the client has, by its index (the final `response.completed` lists them). */
  output: unknown[];
}

/**
 * Relays a streamed Responses reply event by event, holding back the function-call items until the round
 * ends; when the round called the gateway's own tool, asks the upstream again through `next` and relays
 * the next round's items as more items of the same response (its text token by token).
 */
export async function relayResponsesRounds(
  first: Response,
  response: ServerResponse,
  options: StreamRoundOptions,
): Promise<void> {
  const write = openRelay(first, response);
  const state: RelayState = { id: undefined, sequence: 0, output: [] };
  let upstream = first;
  for (let round = 0; ; round++) {
    const end = await relayRound(upstream, round, round < options.maxRounds, state, options, write);
    if (end.kind === 'done' || response.destroyed) break;
    const next = await options.next(end.reply).catch(() => undefined);
    if (next !== undefined && next.ok && next.body !== null) {
      upstream = next;
      continue;
    }
    // The next round could not be had: end the response with what the client has, and the calls it can run itself.
    if (next !== undefined) await next.body?.cancel().catch(() => undefined);
    const theirs = end.held.filter((each) => each.item['name'] !== options.toolName);
    for (const each of theirs) await relayHeld(each, state, write);
    await write(finishedEvent(end.finished, state));
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
  const items = new Map<number, RoundItem>();
  const ours = () => answerCalls && [...items.values()].some((each) => isOurs(each.item, options.toolName));
  for await (const event of sseEvents(upstream)) {
    const data = event.data;
    const usage = objectOf(data?.['response'])?.['usage'];
    if (usage !== undefined && usage !== null) options.onUsageEvent(data);
    const index = typeof data?.['output_index'] === 'number' ? data['output_index'] : undefined;
    if (event.name === 'response.created' || event.name === 'response.in_progress') {
      state.id ??= String(objectOf(data?.['response'])?.['id'] ?? '');
      if (round === 0) await write(renumber(event, state));
      continue;
    }
    if (event.name === 'response.completed' || event.name === 'response.incomplete') {
      const held = [...items.values()].filter((each) => each.relayedAs === undefined);
      if (ours()) return { kind: 'answer', reply: data?.['response'], finished: event, held };
      for (const each of held) await relayHeld(each, state, write);
      await write(finishedEvent(event, state));
      continue;
    }
    if (index === undefined || data === undefined) {
      await write(renumber(event, state));
      continue;
    }
    if (event.name === 'response.output_item.added') {
      const item = objectOf(data['item']) ?? {};
      const each: RoundItem = isCallItem(item)
        ? { item, held: [event] }
        : { item, relayedAs: state.output.length, held: [] };
      if (each.relayedAs !== undefined) state.output.push(item);
      items.set(index, each);
      if (each.relayedAs !== undefined) await write(renumber(event, state, each.relayedAs));
      continue;
    }
    const each = items.get(index);
    if (event.name === 'response.output_item.done' && each !== undefined)
      each.item = objectOf(data['item']) ?? each.item;
    if (each === undefined) await write(renumber(event, state));
    else if (each.relayedAs === undefined) each.held.push(event);
    else {
      if (event.name === 'response.output_item.done') state.output[each.relayedAs] = each.item;
      await write(renumber(event, state, each.relayedAs));
    }
  }
  return { kind: 'done' };
}

/** An item that calls a tool (the client's calls wait for the round's end; the gateway's never reach it). */
export function isCallItem(item: Record<string, unknown>): boolean {
  return item['type'] === 'function_call' || item['type'] === 'custom_tool_call';
}

function isOurs(item: Record<string, unknown>, toolName: string): boolean {
  return isCallItem(item) && item['name'] === toolName;
}

/** A held call item's events, under the next index the client has. */
async function relayHeld(each: RoundItem, state: RelayState, write: (text: string) => Promise<void>): Promise<void> {
  const index = state.output.length;
  state.output.push(each.item);
  for (const event of each.held) await write(renumber(event, state, index));
}

/** The round's `response.completed` as the client's: the first round's id, every item the client was sent. */
function finishedEvent(event: SseEvent, state: RelayState): string {
  const response = objectOf(event.data?.['response']) ?? {};
  const data = { ...event.data, response: { ...response, id: state.id ?? response['id'], output: state.output } };
  return serialize(event.name, data, state);
}

/** An event with the client's sequence number (and output index). */
function renumber(event: SseEvent, state: RelayState, outputIndex?: number): string {
  if (event.data === undefined) return event.raw;
  const data = outputIndex === undefined ? event.data : { ...event.data, output_index: outputIndex };
  return serialize(event.name, data, state);
}

function serialize(name: string, data: Record<string, unknown>, state: RelayState): string {
  const numbered = 'sequence_number' in data ? { ...data, sequence_number: state.sequence++ } : data;
  return `event: ${name}\ndata: ${JSON.stringify(numbered)}\n\n`;
}
