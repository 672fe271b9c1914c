import type { CompactionIndexView } from './compaction-index.js';
import { assertCount } from './errors.js';

/**
 * Decides from the included totals whether compaction should run (a trigger)
 * or may stop (a target). O(1): the index keeps its totals up to date.
 */
export type CompactionTrigger = (index: CompactionIndexView) => boolean;

function threshold(name: string, limit: number, read: (index: CompactionIndexView) => number): CompactionTrigger {
  assertCount(limit, 'n', `triggers.${name}`);
  return (index) => read(index) > limit;
}

/**
 * The trigger library (Microsoft Agent Framework's CompactionTriggers). Counts consider only the
 * groups still included; comparisons are strict (`tokensExceed(n)` fires above n).
 */
export const triggers = {
  /** Fires every time. */
  always: (() => true) as CompactionTrigger,
  /** Never fires (compaction off). */
  never: (() => false) as CompactionTrigger,
  /** Included tokens > n. */
  tokensExceed: (n: number) => threshold('tokensExceed', n, (index) => index.included.tokens),
  /** Included messages (system ones too) > n. */
  messagesExceed: (n: number) => threshold('messagesExceed', n, (index) => index.included.messages),
  /** Included user turns (user groups) > n. */
  turnsExceed: (n: number) => threshold('turnsExceed', n, (index) => index.included.turns),
  /** Included groups (system groups too) > n. */
  groupsExceed: (n: number) => threshold('groupsExceed', n, (index) => index.included.groups),
  /** At least one included tool-call group. */
  hasToolCalls: (): CompactionTrigger => (index) => index.included.toolCallGroups > 0,
  /** Logical AND; `all()` of nothing is true. */
  all:
    (...conditions: CompactionTrigger[]): CompactionTrigger =>
    (index) =>
      conditions.every((condition) => condition(index)),
  /** Logical OR; `any()` of nothing is false. */
  any:
    (...conditions: CompactionTrigger[]): CompactionTrigger =>
    (index) =>
      conditions.some((condition) => condition(index)),
} as const;

/** The default target: stop as soon as the trigger no longer fires. */
export function negate(trigger: CompactionTrigger): CompactionTrigger {
  return (index) => !trigger(index);
}
