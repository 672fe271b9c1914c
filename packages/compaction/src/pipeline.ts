import type { CompactionStrategy } from './compaction-strategy.js';
import { throwIfAborted } from './errors.js';
import { triggers } from './triggers.js';

export const PIPELINE = 'pipeline';

/**
 * Runs strategies in order, each on the result of the one before and each
 * checking its own trigger; the pipeline's own trigger is `always`. Put the
 * gentlest first. Accepts the strategies as arguments or as one array.
 */
export function pipeline(...strategies: (CompactionStrategy | readonly CompactionStrategy[])[]): CompactionStrategy {
  const children = strategies.flat();
  return {
    name: PIPELINE,
    trigger: triggers.always,
    async compact(index, context) {
      let changed = false;
      for (const strategy of children) {
        throwIfAborted(context.signal, PIPELINE);
        changed = (await strategy.compact(index, context)) || changed;
      }
      return changed;
    },
  };
}
