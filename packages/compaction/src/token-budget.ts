import type { CompactionIndexView } from './compaction-index.js';
import type { CompactionStrategy, PreserveOptions } from './compaction-strategy.js';
import { assertCount, throwIfAborted } from './errors.js';
import { excludeOldest } from './exclude-oldest.js';
import { createProtection } from './protection.js';
import { triggers } from './triggers.js';

export const TOKEN_BUDGET = 'tokenBudget';

export const TOKEN_BUDGET_DEFAULTS = { earlyStop: true, minimumPreserved: 1 } as const;

export interface TokenBudgetOptions extends Pick<
  PreserveOptions,
  'minimumPreserved' | 'pinFirstUserMessage' | 'pinSummaries'
> {
  /** The most tokens the projection may hold. */
  budget: number;
  /** Run in order, gentlest first, each with its own trigger. */
  strategies: readonly CompactionStrategy[];
  /** Stop as soon as the budget holds. Default true. */
  earlyStop?: boolean;
}

/**
 * Strategies in order under one token budget (Microsoft Agent Framework's TokenBudgetComposedStrategy).
 * Fires when the included tokens exceed the budget. When all strategies together
 * miss it, excludes the oldest groups until it holds, never a summary written in
 * this run (its originals are excluded, so it is the only trace of them) and
 * never below the floor; if even that misses, the report says so.
 */
export function tokenBudget(options: TokenBudgetOptions): CompactionStrategy {
  assertCount(options.budget, 'budget', TOKEN_BUDGET);
  assertCount(options.minimumPreserved, 'minimumPreserved', TOKEN_BUDGET);
  const trigger = triggers.tokensExceed(options.budget);
  const holds = (index: CompactionIndexView) => !trigger(index);
  return {
    name: TOKEN_BUDGET,
    trigger,
    async compact(index, context) {
      throwIfAborted(context.signal, TOKEN_BUDGET);
      if (!trigger(index)) return false;
      let changed = false;
      for (const strategy of options.strategies) {
        if ((options.earlyStop ?? TOKEN_BUDGET_DEFAULTS.earlyStop) && holds(index)) break;
        changed = (await strategy.compact(index, context)) || changed;
      }
      if (holds(index)) return changed;
      const isProtected = createProtection(index, options, TOKEN_BUDGET_DEFAULTS.minimumPreserved, TOKEN_BUDGET);
      const excluded = excludeOldest(index, { isProtected, isDone: () => holds(index) });
      if (excluded.length > 0) context.steps.push(`${TOKEN_BUDGET}:fallback`);
      if (!holds(index)) {
        context.notes.push(
          `${TOKEN_BUDGET}: ${index.included.tokens} tokens remain over the budget of ${options.budget}; what is left is protected (system groups, the newest groups, pins, fresh summaries)`,
        );
      }
      return changed || excluded.length > 0;
    },
  };
}
