import type { Message } from '../model/message.js';
import { replacedSince, revisionOf } from './journaled-list.js';

export interface PromptRendererOptions<T> {
  /** One message as the framework's items (depends on the message alone: a message kept at its place is not rendered again). */
  render(message: Message): readonly T[];
  /** A number kept summed over the messages (e.g. how many carry a provider's compaction), counted for changed messages only. */
  tally?(message: Message): number;
}

export interface RenderedPrompt<T> {
  /** Every message's items in order; a new array on each call (the caller may keep or change it). */
  items: T[];
  /** The sum of `tally` over the messages (0 without one). */
  tally: number;
}

export interface PromptRenderer<T> {
  /** The rendering of `messages` from `start` on (default 0: all; a head before it is the caller's to render). */
  render(messages: readonly Message[], start?: number): RenderedPrompt<T>;
}

interface Rendered<T> {
  messages: Message[];
  items: T[];
  /** Where each message's items end in `items`. */
  ends: number[];
  tally: number;
  /** The list last rendered, its head and its revision (journaled-list.ts), when its changes can be followed. */
  seen?: { list: readonly Message[]; start: number; revision: number };
}

/**
 * Renders a projection into a framework's request, keeping the last rendering: the next projection
 * of the same view holds the same message objects at the same places except what is new or marked
 * (a cache breakpoint moved, a message appended), so only those messages are rendered and the kept
 * request is patched in place. Which places to look at: when the projection is the very list rendered
 * last time and its owner journals its changes (a session's view, prompt caching's marked list), the
 * entries replaced since and the ones appended; otherwise every place, an identity compare each. The
 * cost of a call is then what changed plus one copy of the request (what the caller gets: frameworks
 * and their tracers may keep or change it). Keep one renderer per view (its originals) and rendering settings.
 */
export function createPromptRenderer<T>(options: PromptRendererOptions<T>): PromptRenderer<T> {
  // No memo per message object: a message the caller sent renders to its own object at the cost of a lookup, as a memo would.
  const renderOne = (message: Message): readonly T[] => options.render(message);
  const tallyOf = (message: Message): number => options.tally?.(message) ?? 0;
  const empty = (): Rendered<T> => ({ messages: [], items: [], ends: [], tally: 0 });
  let kept = empty();
  return {
    render(messages, start = 0) {
      try {
        update(kept, messages, start, replacedPlaces(kept, messages, start), renderOne, tallyOf);
      } catch (error) {
        // Half patched: start over next time.
        kept = empty();
        throw error;
      }
      const revision = revisionOf(messages);
      kept.seen = revision === undefined ? undefined : { list: messages, start, revision };
      return { items: kept.items.slice(), tally: kept.tally };
    },
  };
}

/**
 * The kept places (ascending, from `start`) whose message may have been replaced since the last call, when
 * `messages` is the list rendered then and its journal says; undefined: every place is to be compared.
 */
function replacedPlaces<T>(kept: Rendered<T>, messages: readonly Message[], start: number): number[] | undefined {
  const { seen } = kept;
  if (seen === undefined || seen.list !== messages || seen.start !== start) return undefined;
  if (messages.length - start < kept.messages.length) return undefined;
  const replaced = replacedSince(messages, seen.revision);
  if (replaced === undefined) return undefined;
  const places = new Set<number>();
  for (const index of replaced) if (index >= start && index - start < kept.messages.length) places.add(index - start);
  return [...places].sort((left, right) => left - right);
}

/** Makes `kept` the rendering of `messages` from `start` on, in place (`places`: where to look, see `replacedPlaces`). */
function update<T>(
  kept: Rendered<T>,
  messages: readonly Message[],
  start: number,
  places: readonly number[] | undefined,
  renderOne: (message: Message) => readonly T[],
  tallyOf: (message: Message) => number,
): void {
  const { items, ends } = kept;
  const count = Math.max(messages.length - start, 0);
  const limit = Math.min(kept.messages.length, count);
  const changedFrom =
    places === undefined
      ? (from: number): number => nextChanged(messages, start, kept.messages, from, limit)
      : nextListedChange(places, messages, start, kept.messages, limit);
  // Messages at the same place that are other objects: patched in place while they render to as many items.
  let from = limit;
  for (let index = changedFrom(0); index < limit;) {
    const message = messages[start + index]!;
    const old = kept.messages[index]!;
    const rendered = renderOne(message);
    const at = index === 0 ? 0 : ends[index - 1]!;
    if (rendered.length !== ends[index]! - at) {
      from = index;
      break;
    }
    for (let offset = 0; offset < rendered.length; offset++) items[at + offset] = rendered[offset]!;
    kept.tally += tallyOf(message) - tallyOf(old);
    kept.messages[index] = message;
    index = changedFrom(index + 1);
  }
  for (let index = from; index < kept.messages.length; index++) kept.tally -= tallyOf(kept.messages[index]!);
  kept.messages.length = from;
  items.length = from === 0 ? 0 : ends[from - 1]!;
  ends.length = from;
  for (let index = from; index < count; index++) {
    const message = messages[start + index]!;
    for (const item of renderOne(message)) items.push(item);
    ends.push(items.length);
    kept.messages.push(message);
    kept.tally += tallyOf(message);
  }
}

/** The first index from `from` below `limit` where `messages` (from `start`) holds another object than `kept`, else `limit`. */
function nextChanged(
  messages: readonly Message[],
  start: number,
  kept: readonly Message[],
  from: number,
  limit: number,
): number {
  let index = from;
  // Object.is: the same object is recognised without reading it (see prompt-chain's sharedLength).
  while (index < limit && Object.is(messages[start + index], kept[index])) index++;
  return index;
}

/** `nextChanged` looking only at the listed places (ascending). */
function nextListedChange(
  places: readonly number[],
  messages: readonly Message[],
  start: number,
  kept: readonly Message[],
  limit: number,
): (from: number) => number {
  let at = 0;
  return (from) => {
    while (at < places.length && places[at]! < from) at++;
    for (; at < places.length && places[at]! < limit; at++)
      if (!Object.is(messages[start + places[at]!], kept[places[at]!])) return places[at]!;
    return limit;
  };
}
