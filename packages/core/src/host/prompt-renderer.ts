import type { Message } from '../model/message.js';
import { replacedSince, revisionOf } from './journaled-list.js';

export interface PromptRendererOptions<T> {
  /** One message as the framework's items (depends on the message alone: a message kept at its place is not rendered again). */
  render(message: Message): readonly T[];
  /** A number kept summed over the messages (e.g. how many carry a provider's compaction), counted for changed messages only. */
  tally?(message: Message): number;
}

export interface RenderedPrompt<T> {
  /**
   * Every message's items in order: the caller's own list when the rendering is exactly it (see
   * `CallerList`), else a new array on each call (the caller may keep or change it).
   */
  items: T[];
  /** The sum of `tally` over the messages (0 without one). */
  tally: number;
}

/**
 * The caller's own list of items, to be handed back instead of a copy when the rendering is that very list:
 * `storage[offset + i]` is `list[i]` for every `i` below `list.length`, and `storage` never changes an entry
 * it holds, only appends (a prompt chain's sources, `StatelessTurn.sourceStorage`). The renderer keeps how far
 * its items were found to be `storage`'s, so telling that costs what changed since, not a compare of the list.
 */
export interface CallerList<T> {
  list: readonly T[];
  storage: readonly unknown[];
  offset: number;
}

export interface PromptRenderer<T> {
  /**
   * The rendering of `messages` from `start` on (default 0: all; a head before it is the caller's to render);
   * with `caller`, that list itself when the rendering is it.
   */
  render(messages: readonly Message[], start?: number, caller?: CallerList<T>): RenderedPrompt<T>;
}

interface Rendered<T> {
  messages: Message[];
  items: T[];
  /** Where each message's items end in `items`. */
  ends: number[];
  tally: number;
  /** The list last rendered, its head and its revision (journaled-list.ts), when its changes can be followed. */
  seen?: { list: readonly Message[]; start: number; revision: number };
  /** `items[i]` is `storage[offset + i]` for every `i` below `length` (a caller's storage, see `CallerList`). */
  aligned?: { storage: readonly unknown[]; offset: number; length: number };
}

/**
 * Renders a projection into a framework's request, keeping the last rendering: the next projection
 * of the same view holds the same message objects at the same places except what is new or marked
 * (a cache breakpoint moved, a message appended), so only those messages are rendered and the kept
 * request is patched in place. Which places to look at: when the projection is the very list rendered
 * last time and its owner journals its changes (a session's view, prompt caching's marked list), the
 * entries replaced since and the ones appended; otherwise every place, an identity compare each. The
 * cost of a call is then what changed plus one copy of the request (what the caller gets: frameworks
 * and their tracers may keep or change it), or, when the request is exactly the caller's own list
 * (ctxhost changed nothing it sends), that list handed back: no copy, what changed is all a call costs.
 * Keep one renderer per view (its originals) and rendering settings.
 */
export function createPromptRenderer<T>(options: PromptRendererOptions<T>): PromptRenderer<T> {
  // No memo per message object: a message the caller sent renders to its own object at the cost of a lookup, as a memo would.
  const renderOne = (message: Message): readonly T[] => options.render(message);
  const tallyOf = (message: Message): number => options.tally?.(message) ?? 0;
  const empty = (): Rendered<T> => ({ messages: [], items: [], ends: [], tally: 0 });
  let kept = empty();
  return {
    render(messages, start = 0, caller) {
      let lowest: number;
      try {
        lowest = update(kept, messages, start, replacedPlaces(kept, messages, start), renderOne, tallyOf);
      } catch (error) {
        // Half patched: start over next time.
        kept = empty();
        throw error;
      }
      const revision = revisionOf(messages);
      kept.seen = revision === undefined ? undefined : { list: messages, start, revision };
      if (kept.aligned !== undefined) kept.aligned.length = Math.min(kept.aligned.length, lowest);
      // The caller's own list: frameworks keep the array they handed in, so it is theirs to hand on.
      if (caller !== undefined && isCallerList(kept, caller)) return { items: caller.list as T[], tally: kept.tally };
      return { items: kept.items.slice(), tally: kept.tally };
    },
  };
}

/**
 * Whether the kept items are the caller's list, entry for entry, checked from where they were last found to
 * be its storage's (entries before it were not written since, and storage entries never change). A mismatch
 * left in place is found again at once: a request that differs from the caller's (a cache mark) costs O(1) here.
 */
function isCallerList<T>(kept: Rendered<T>, caller: CallerList<T>): boolean {
  const { items } = kept;
  const { storage, offset } = caller;
  if (caller.list.length !== items.length || storage.length < offset + items.length) return false;
  const known = kept.aligned;
  let index = known !== undefined && known.storage === storage && known.offset === offset ? known.length : 0;
  // Object.is: the same object is recognised without reading it (see prompt-chain's sharedLength).
  while (index < items.length && Object.is(items[index], storage[offset + index])) index++;
  kept.aligned = { storage, offset, length: index };
  return index === items.length;
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

/**
 * Makes `kept` the rendering of `messages` from `start` on, in place (`places`: where to look, see
 * `replacedPlaces`); answers the lowest index of `items` written (their length when none was).
 */
function update<T>(
  kept: Rendered<T>,
  messages: readonly Message[],
  start: number,
  places: readonly number[] | undefined,
  renderOne: (message: Message) => readonly T[],
  tallyOf: (message: Message) => number,
): number {
  const { items, ends } = kept;
  let lowest = items.length;
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
    for (let offset = 0; offset < rendered.length; offset++) {
      // A message marked or unmarked often renders to the very items it had (the caller's): nothing written.
      if (Object.is(items[at + offset], rendered[offset])) continue;
      items[at + offset] = rendered[offset]!;
      lowest = Math.min(lowest, at + offset);
    }
    kept.tally += tallyOf(message) - tallyOf(old);
    kept.messages[index] = message;
    index = changedFrom(index + 1);
  }
  for (let index = from; index < kept.messages.length; index++) kept.tally -= tallyOf(kept.messages[index]!);
  kept.messages.length = from;
  items.length = from === 0 ? 0 : ends[from - 1]!;
  lowest = Math.min(lowest, items.length);
  ends.length = from;
  for (let index = from; index < count; index++) {
    const message = messages[start + index]!;
    for (const item of renderOne(message)) items.push(item);
    ends.push(items.length);
    kept.messages.push(message);
    kept.tally += tallyOf(message);
  }
  return lowest;
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
