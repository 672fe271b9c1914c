import type { CoveredSpan, Message, SummaryMeta } from './message.js';

/** What a summary covers, as stored: a span, or a list of ids. */
export type Covers = SummaryMeta['covers'];

/** How many messages a summary covers. */
export function coveredCount(covers: Covers): number {
  return Array.isArray(covers) ? covers.length : covers.count;
}

/** `covers` as a span (a list becomes its first id, last id and length); undefined for an empty list. */
export function toCoveredSpan(covers: Covers): CoveredSpan | undefined {
  if (!Array.isArray(covers)) return covers;
  if (covers.length === 0) return undefined;
  return { first: covers[0]!, last: covers.at(-1)!, count: covers.length };
}

/**
 * What a summary of `messages` (a run of a projection, oldest first) covers:
 * each message itself, or for a summary among them what that summary covers,
 * joined into one span. O(messages): a summary's span is taken whole, so a
 * summary of a summary costs what is new, however much the older one covered.
 */
export function coveredSpanOf(messages: readonly Message[]): CoveredSpan | undefined {
  let first: string | undefined;
  let last: string | undefined;
  let count = 0;
  for (const message of messages) {
    const inner = message.meta?.summary;
    const span = inner === undefined ? { first: message.id, last: message.id, count: 1 } : toCoveredSpan(inner.covers);
    if (span === undefined) continue;
    first ??= span.first;
    last = span.last;
    count += span.count;
  }
  return first === undefined || last === undefined ? undefined : { first, last, count };
}

/**
 * Every covered id, oldest first. A list is returned as it is; a span is
 * looked up in `history` (every message as appended): the messages from its
 * first to its last. Empty when `first` is not in `history`. O(history).
 */
export function coveredIds(covers: Covers, history: readonly Message[]): string[] {
  if (Array.isArray(covers)) return covers;
  const range = spanRange(covers, history);
  return range === undefined ? [] : history.slice(range.start, range.end + 1).map((message) => message.id);
}

/** The id of the `position`-th covered message (1-based, oldest first), or undefined when there is none. */
export function coveredIdAt(covers: Covers, position: number, history: readonly Message[]): string | undefined {
  if (!Number.isInteger(position) || position < 1) return undefined;
  if (Array.isArray(covers)) return covers[position - 1];
  const range = spanRange(covers, history);
  if (range === undefined || range.start + position - 1 > range.end) return undefined;
  return history[range.start + position - 1]?.id;
}

function spanRange(span: CoveredSpan, history: readonly Message[]): { start: number; end: number } | undefined {
  const start = history.findIndex((message) => message.id === span.first);
  if (start < 0) return undefined;
  for (let end = start; end < history.length; end++) if (history[end]!.id === span.last) return { start, end };
  // The newest covered message is not in this history (it was never appended): up to the span's count.
  return { start, end: Math.min(history.length, start + span.count) - 1 };
}
