import type { CompactionStrategy, PreserveOptions } from './compaction-strategy.js';
import { assertCount, COMPACTION_ERROR_CODES, CompactionError, throwIfAborted } from './errors.js';
import { excludeOldest } from './exclude-oldest.js';
import { createProtection } from './protection.js';
import { negate, triggers, type CompactionTrigger } from './triggers.js';

export const TRUNCATION = 'truncation';

/** Microsoft Agent Framework (.NET): `MinimumPreserved` defaults to 32. */
export const TRUNCATION_DEFAULTS = { minimumPreserved: 32, metric: 'tokens' } as const;

export interface TruncationOptions extends PreserveOptions {
  /** Python form: compact when the metric exceeds `maxN`… */
  maxN?: number;
  /** …down to at most `compactTo` (default `maxN`). */
  compactTo?: number;
  /** What `maxN`/`compactTo` count. Default `tokens` (a counter is always at hand here). */
  metric?: 'tokens' | 'messages';
}

/**
 * Drops the oldest non-system groups until the target holds: the emergency
 * backstop. Give a `trigger` (.NET form) or `maxN` (Python form).
 */
export function truncation(options: TruncationOptions): CompactionStrategy {
  const { trigger, target } = resolveTruncationTriggers(options);
  assertCount(options.minimumPreserved, 'minimumPreserved', TRUNCATION);
  return {
    name: TRUNCATION,
    trigger,
    async compact(index, context) {
      throwIfAborted(context.signal, TRUNCATION);
      if (!trigger(index)) return false;
      const isProtected = createProtection(index, options, TRUNCATION_DEFAULTS.minimumPreserved, TRUNCATION);
      const excluded = excludeOldest(index, { isProtected, isDone: () => target(index) });
      if (excluded.length > 0) context.steps.push(TRUNCATION);
      // Said, not silent: the trigger fired and nothing could go (MAF's truncation returned quietly here).
      else
        context.notes.push(
          `${TRUNCATION}: over its trigger but every included group is protected (the floor of ${options.minimumPreserved ?? TRUNCATION_DEFAULTS.minimumPreserved} groups, the newest group, pins): nothing was dropped; lower minimumPreserved or put a stronger strategy first`,
        );
      return excluded.length > 0;
    },
  };
}

function resolveTruncationTriggers(options: TruncationOptions): {
  trigger: CompactionTrigger;
  target: CompactionTrigger;
} {
  assertCount(options.maxN, 'maxN', TRUNCATION);
  assertCount(options.compactTo, 'compactTo', TRUNCATION);
  if (options.maxN === undefined) {
    if (options.trigger === undefined) {
      throw new CompactionError(
        COMPACTION_ERROR_CODES.optionsInvalid,
        `${TRUNCATION}: needs a trigger (e.g. triggers.tokensExceed(32_000)) or maxN; truncating on every call is never what you want`,
        { strategy: TRUNCATION },
      );
    }
    return { trigger: options.trigger, target: options.target ?? negate(options.trigger) };
  }
  if (options.compactTo !== undefined && options.compactTo > options.maxN) {
    throw new CompactionError(
      COMPACTION_ERROR_CODES.optionsInvalid,
      `${TRUNCATION}: compactTo (${options.compactTo}) is above maxN (${options.maxN}); it must be at most maxN, the size that triggers truncation`,
      { strategy: TRUNCATION },
    );
  }
  const exceeds =
    (options.metric ?? TRUNCATION_DEFAULTS.metric) === 'tokens' ? triggers.tokensExceed : triggers.messagesExceed;
  const trigger = options.trigger ?? exceeds(options.maxN);
  return { trigger, target: options.target ?? negate(exceeds(options.compactTo ?? options.maxN)) };
}
