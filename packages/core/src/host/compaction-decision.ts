import type { CompactionReason } from '../model/compaction-report.js';
import type { ModelRequest } from '../model/model-client.js';

/**
 * Share of the compaction threshold a compaction aims for (the low-water mark):
 * compacting well under the line lets the following requests append to a
 * stable, cached prefix for several turns instead of crossing the line again
 * on the next one.
 */
export const COMPACTION_LOW_WATER = 0.6;

/** A threshold compaction on the request right after another waits until the prompt grew by this share of the window. */
export const CONSECUTIVE_REGROWTH = 0.1;

/** The size a threshold or hygiene compaction aims for: the low-water mark under `threshold × window`. */
export function lowWaterMark(threshold: number, contextWindow: number): number {
  return Math.floor(threshold * contextWindow * COMPACTION_LOW_WATER);
}

/**
 * The prompt line the request's output budget draws, when it is below `threshold × window`: a prompt over
 * `window − maxOutputTokens` leaves the reply no room (APIs that count input + max_tokens refuse it), whatever
 * the threshold says. Undefined when the threshold's line is the lower one (the usual case) or no prompt can
 * fit (a budget of the whole window).
 */
export function outputBudgetLine(
  threshold: number,
  contextWindow: number,
  maxOutputTokens: number,
): number | undefined {
  const room = contextWindow - maxOutputTokens;
  return room > 0 && room < threshold * contextWindow ? room : undefined;
}

const COMPACTED = Symbol.for('ctxhost.request.compactedBy');

/**
 * Marks a request as compacted in this pass of `beforeRequest`, so a later tap
 * (session hygiene) does not compact it a second time: one decision per request.
 * A non-enumerable symbol on the request object, so copies of core agree and
 * nothing of it reaches the wire.
 */
export function markRequestCompacted<T extends ModelRequest>(request: T, reason: CompactionReason): T {
  Object.defineProperty(request, COMPACTED, { value: reason, enumerable: false, configurable: true });
  return request;
}

/** Why this request was compacted in this pass of `beforeRequest`, if it was. */
export function requestCompactedBy(request: ModelRequest): CompactionReason | undefined {
  return (request as unknown as Record<symbol, CompactionReason | undefined>)[COMPACTED];
}
