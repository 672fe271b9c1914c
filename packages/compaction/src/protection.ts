import type { CompactionGroup, CompactionIndex } from './compaction-index.js';
import type { PreserveOptions } from './compaction-strategy.js';
import { assertCount } from './errors.js';

/** True for a group no strategy may exclude right now. */
export type IsProtected = (group: CompactionGroup) => boolean;

/**
 * Which groups a strategy must keep: system groups, the newest
 * `max(1, minimumPreserved)` included non-system groups (so a projection is
 * never empty), pinned groups, and summaries made by a model in this run
 * (their originals stay excluded, so dropping them would lose the span).
 * Computed once per strategy run, in one pass.
 */
export function createProtection(
  index: CompactionIndex,
  options: PreserveOptions,
  defaultMinimum: number,
  where: string,
): IsProtected {
  assertCount(options.minimumPreserved, 'minimumPreserved', where);
  const floor = Math.max(1, options.minimumPreserved ?? defaultMinimum);
  const kept = new Set<number>();
  const groups = index.ordered();
  let remaining = floor;
  for (let position = groups.length - 1; position >= 0 && remaining > 0; position--) {
    const group = groups[position]!;
    if (group.excluded || group.kind === 'system') continue;
    kept.add(group.id);
    remaining--;
  }
  if (options.pinFirstUserMessage === true) {
    const firstUser = groups.find((group) => group.kind === 'user' && !group.inserted);
    if (firstUser !== undefined) kept.add(firstUser.id);
  }
  return (group) =>
    group.kind === 'system' ||
    kept.has(group.id) ||
    (group.kind === 'summary' && options.pinSummaries === true) ||
    isFreshModelSummary(group);
}

/** A summary a summarizer wrote in this run. Collapsed tool lines are not: dropping one drops what truncating its group would. */
export function isFreshModelSummary(group: CompactionGroup): boolean {
  return group.inserted && group.summarySource !== undefined && group.summarySource !== 'tool-results';
}
