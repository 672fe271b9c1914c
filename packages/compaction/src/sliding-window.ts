import type { CompactionGroup, CompactionIndex } from './compaction-index.js';
import type { CompactionStrategy, PreserveOptions } from './compaction-strategy.js';
import { assertCount, COMPACTION_ERROR_CODES, CompactionError, throwIfAborted } from './errors.js';
import { excludeOldest } from './exclude-oldest.js';
import { createProtection, type IsProtected } from './protection.js';
import { negate, triggers, type CompactionTrigger } from './triggers.js';

export const SLIDING_WINDOW = 'slidingWindow';

/** Microsoft Agent Framework: floor 1 (the newest non-system group). */
export const SLIDING_WINDOW_DEFAULTS = { minimumPreserved: 1 } as const;

export interface SlidingWindowOptions extends PreserveOptions {
  /** Keep the last N user turns (.NET form; trigger `turnsExceed(N)`). */
  keepLastTurns?: number;
  /** Keep the last N non-system groups (Python form). */
  keepLastGroups?: number;
}

/**
 * Keeps a window of the newest conversation. By turns (a user group and
 * everything up to the next user group), whole turns oldest first; or by
 * groups (`keepLastGroups`), oldest groups first without leaving the projection
 * opening on a non-user message. System groups always stay.
 */
export function slidingWindow(options: SlidingWindowOptions): CompactionStrategy {
  assertCount(options.keepLastTurns, 'keepLastTurns', SLIDING_WINDOW);
  assertCount(options.keepLastGroups, 'keepLastGroups', SLIDING_WINDOW);
  assertCount(options.minimumPreserved, 'minimumPreserved', SLIDING_WINDOW);
  const byGroups = options.keepLastGroups !== undefined;
  const trigger = resolveTrigger(options);
  const target =
    options.target ??
    (byGroups ? (index) => index.included.nonSystemGroups <= options.keepLastGroups! : negate(trigger));
  return {
    name: SLIDING_WINDOW,
    trigger,
    async compact(index, context) {
      throwIfAborted(context.signal, SLIDING_WINDOW);
      if (!trigger(index)) return false;
      const isProtected = createProtection(index, options, SLIDING_WINDOW_DEFAULTS.minimumPreserved, SLIDING_WINDOW);
      const changed = byGroups
        ? excludeOldest(index, { isProtected, isDone: () => target(index) }).length > 0
        : excludeOldestTurns(index, isProtected, target);
      if (changed) context.steps.push(SLIDING_WINDOW);
      return changed;
    },
  };
}

function resolveTrigger(options: SlidingWindowOptions): CompactionTrigger {
  if (options.trigger !== undefined) return options.trigger;
  if (options.keepLastTurns !== undefined) return triggers.turnsExceed(options.keepLastTurns);
  if (options.keepLastGroups !== undefined) return (index) => index.included.nonSystemGroups > options.keepLastGroups!;
  throw new CompactionError(
    COMPACTION_ERROR_CODES.optionsInvalid,
    `${SLIDING_WINDOW}: needs keepLastTurns, keepLastGroups or a trigger (e.g. triggers.turnsExceed(4)) to know the window`,
    { strategy: SLIDING_WINDOW },
  );
}

/** Excludes whole turns, oldest first, re-checking the target after each; stops at the first turn holding a protected group. */
function excludeOldestTurns(index: CompactionIndex, isProtected: IsProtected, target: CompactionTrigger): boolean {
  let changed = false;
  for (const turn of turnsOf(index)) {
    if (target(index)) break;
    const kept = turn.filter(isProtected);
    if (kept.some((group) => group.kind !== 'summary' && !isPinnedHead(group, turn))) break;
    // A kept group that cannot open the conversation (a pinned collapsed line) keeps its turn's user message.
    const keepHead = kept.length > 0 && !kept[0]!.leadsTurn && turn[0]!.leadsTurn;
    const removable = turn.filter((group) => !isProtected(group) && !(keepHead && group === turn[0]));
    for (const group of removable) index.exclude(group);
    changed ||= removable.length > 0;
  }
  return changed;
}

/** A pinned first user message keeps its place but does not stop the window from sliding past its turn. */
function isPinnedHead(group: CompactionGroup, turn: readonly CompactionGroup[]): boolean {
  return group === turn[0] && group.kind === 'user';
}

/** Included non-system groups cut into turns; groups before the first user group join the first turn. */
function turnsOf(index: CompactionIndex): CompactionGroup[][] {
  const turns: CompactionGroup[][] = [];
  let current: CompactionGroup[] = [];
  let hasUser = false;
  for (const group of index.ordered()) {
    if (group.excluded || group.kind === 'system') continue;
    if (group.kind === 'user' && hasUser) {
      turns.push(current);
      current = [];
    }
    hasUser ||= group.kind === 'user';
    current.push(group);
  }
  if (current.length > 0) turns.push(current);
  return turns;
}
