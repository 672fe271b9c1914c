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
