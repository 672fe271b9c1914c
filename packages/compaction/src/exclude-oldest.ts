import type { CompactionGroup, CompactionIndex } from './compaction-index.js';
import type { IsProtected } from './protection.js';

export interface ExcludeOldestOptions {
  isProtected: IsProtected;
  /** Re-checked before each step; true stops. */
  isDone: () => boolean;
}

/**
 * Excludes included non-system groups oldest first until `isDone()`, skipping
 * protected ones. A step is one group, except at the head: when the first
 * included group is a user message, it goes only together with everything up to
 * the next user message (a whole turn), so the projection still opens with the
 * user. When that turn cannot go whole, the head stays and the groups after it
 * go one by one. Linear in the number of groups.
 */
export function excludeOldest(index: CompactionIndex, options: ExcludeOldestOptions): CompactionGroup[] {
  const groups = index.ordered().filter((group) => !group.excluded && group.kind !== 'system');
  const excluded: CompactionGroup[] = [];
  let head = 0;
  for (let position = 0; position < groups.length; position++) {
    if (options.isDone()) break;
    while (head < groups.length && groups[head]!.excluded) head++;
    const group = groups[position]!;
    if (group.excluded || options.isProtected(group)) continue;
    if (position !== head || !group.leadsTurn) {
      index.exclude(group);
      excluded.push(group);
      continue;
    }
    const turnEnd = endOfTurn(groups, position);
    if (turnEnd === undefined || groups.slice(position, turnEnd).some(options.isProtected)) continue;
    for (let member = position; member < turnEnd; member++) {
      index.exclude(groups[member]!);
      excluded.push(groups[member]!);
    }
    position = turnEnd - 1;
  }
  return excluded;
}

/** Position of the next group that leads a turn after `start`, or undefined when none follows. */
function endOfTurn(groups: readonly CompactionGroup[], start: number): number | undefined {
  for (let position = start + 1; position < groups.length; position++) if (groups[position]!.leadsTurn) return position;
  return undefined;
}
