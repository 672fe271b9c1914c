import type { Message, TokenCounter } from '@ctxhost/core';
import { COMPRESSOR } from './constants.js';
import { findBoundaries } from './find-boundaries.js';
import { summaryBudget } from './summary-budget.js';

export interface TailPlan {
  /** Messages always kept at the end, as chosen. */
  protectLastN: number;
  tailBudgetTokens: number;
  /** Head + summary budget + tail, by the counter: what the compaction should leave. */
  predictedTokens: number;
  /** True when the plan is wider than the caller asked for (fewer protected messages). */
  widened: boolean;
  /** True when even the widest plan would save under `ineffectiveSavings`: better not done. */
  weak: boolean;
}

export interface TailPlanInput {
  messages: readonly Message[];
  counter: TokenCounter;
  contextWindow: number;
  tokensBefore: number;
  /** The protected tail and its budget as the settings (or a recovery) ask. */
  protectLastN: number;
  tailBudgetTokens: number;
  /** A size to reach, when the caller has one (recovery, hygiene, the low-water mark). */
  targetTokens?: number;
  /** The tail starts at or before this index (the newest user request, kept whole). */
  pinFrom?: number;
  /** The fewest messages the tail may keep when widening past the recovery floor (4); default: not past it. */
  narrowest?: number;
}

/**
 * "No churn": predicts what a compaction leaves before any summary
 * is paid for, and widens the tail cut (fewer protected messages, down to the
 * newest two when allowed, and a tail budget down to the target's half) until it saves at
 * least a tenth and, with a target, reaches it. When the widest plan still saves
 * under a tenth, the plan says so and the compaction is not done.
 */
export function planTail(input: TailPlanInput): TailPlan {
  const floors = [
    input.protectLastN,
    Math.min(input.protectLastN, COMPRESSOR.recoveryProtectLastN),
    ...(input.narrowest === undefined ? [] : [Math.min(input.protectLastN, input.narrowest)]),
  ];
  const budgets = [
    input.tailBudgetTokens,
    ...(input.targetTokens === undefined ? [] : [Math.min(input.tailBudgetTokens, Math.floor(input.targetTokens / 2))]),
  ];
  const plans: TailPlan[] = [];
  for (const protectLastN of new Set(floors)) {
    for (const tailBudgetTokens of new Set(budgets)) {
      const predictedTokens = predict(input, protectLastN, tailBudgetTokens);
      const saves = input.tokensBefore > 0 ? (input.tokensBefore - predictedTokens) / input.tokensBefore : 0;
      const plan = {
        protectLastN,
        tailBudgetTokens,
        predictedTokens,
        widened: protectLastN !== input.protectLastN || tailBudgetTokens !== input.tailBudgetTokens,
        weak: saves < COMPRESSOR.ineffectiveSavings,
      };
      if (!plan.weak && (input.targetTokens === undefined || predictedTokens <= input.targetTokens)) return plan;
      plans.push(plan);
    }
  }
  // The target is out of reach: the plan that saves the most (the widest), weak only when every plan is.
  return plans.reduce((best, plan) => (plan.predictedTokens < best.predictedTokens ? plan : best));
}

function predict(input: TailPlanInput, protectLastN: number, tailBudgetTokens: number): number {
  const { headEnd, tailStart } = findBoundaries(input.messages, {
    protectFirstN: COMPRESSOR.protectFirstN,
    protectLastN,
    tailBudgetTokens,
    counter: input.counter,
    ...(input.pinFrom === undefined ? {} : { pinFrom: input.pinFrom }),
  });
  if (tailStart <= headEnd) return input.tokensBefore;
  const head = input.counter.countAll(input.messages.slice(0, headEnd));
  const middle = input.counter.countAll(input.messages.slice(headEnd, tailStart));
  const tail = input.counter.countAll(input.messages.slice(tailStart));
  return head + Math.min(middle, summaryBudget(middle, input.contextWindow)) + tail;
}
