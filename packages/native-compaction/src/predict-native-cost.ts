import { getModelInfo, type ModelOverride } from '@ctxhost/core';
import { NATIVE_SUMMARY_BUDGET_TOKENS } from './summary-prompt.js';

/** The native mechanism a prediction is for. */
export type NativeMechanism =
  'anthropic-threshold' | 'anthropic-on-demand' | 'anthropic-clear-tool-uses' | 'openai-inline' | 'openai-standalone';

export interface NativeCostQuestion {
  mechanism: NativeMechanism;
  model: string;
  /** The prompt as it stands (tokens). */
  promptTokens: number;
  /** Of it, what the last request read from the cache (what a pass over the same prefix may read again). */
  cachedTokens?: number;
  /** Tokens the pass keeps verbatim (the tail; on-demand and standalone only). */
  keepTailTokens?: number;
  /** The summary's expected length (default 4,000, what ctxhost asks for). */
  summaryTokens?: number;
  /** Tool-result tokens a clearing would remove (context editing only). */
  clearableTokens?: number;
  /** Requests expected before the next compaction (to price the rewritten prefix they read back). */
  requestsAhead?: number;
  models?: Readonly<Record<string, ModelOverride>>;
}

export interface NativeCostPrediction {
  mechanism: NativeMechanism;
  /** The pass itself: the prompt read (uncached and cached parts) and the summary written. */
  pass: { inputTokens: number; cachedInputTokens: number; outputTokens: number; dollars: number };
  /** The prompt the next request sends. */
  nextPromptTokens: number;
  /** Writing the new prefix once, then reading it back `requestsAhead` times. */
  afterDollars: number;
  /** `pass.dollars + afterDollars`. */
  totalDollars: number;
  /** Undefined prices: the model is not in the registry (add it under `models:`). */
  priced: boolean;
}

/**
 * What a native mechanism would cost from here, by the model registry's
 * prices, for a policy choosing among a client summary, clearing tool output
 * and native compaction. A compaction pass reads the prompt (the cached part at
 * the cache-read price where the provider reuses the prefix) and writes the
 * summary; then the shorter prompt is written to the cache once and read on
 * each later request. Clearing tool uses costs no pass, only the cache write of
 * what follows the first cleared result. An estimate, not a bill: the bench
 * (`bench/cost-replay.ts`) measures the real figures.
 */
export function predictNativeCost(question: NativeCostQuestion): NativeCostPrediction {
  const prices = getModelInfo(question.model, question.models)?.pricing;
  const perToken = (price: number | undefined) => (price ?? 0) / 1_000_000;
  const input = perToken(prices?.input);
  const read = prices?.cacheRead === undefined ? input : perToken(prices.cacheRead);
  const write = prices?.cacheWrite === undefined ? input : perToken(prices.cacheWrite);
  const output = perToken(prices?.output);
  const summary = question.summaryTokens ?? NATIVE_SUMMARY_BUDGET_TOKENS;
  const ahead = question.requestsAhead ?? 10;
  const cached = Math.min(question.cachedTokens ?? 0, question.promptTokens);
  const clearing = question.mechanism === 'anthropic-clear-tool-uses';
  const pass = clearing
    ? { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, dollars: 0 }
    : {
        inputTokens: question.promptTokens - cached,
        cachedInputTokens: cached,
        outputTokens: summary,
        dollars: (question.promptTokens - cached) * input + cached * read + summary * output,
      };
  const tail =
    question.mechanism === 'anthropic-on-demand' || question.mechanism === 'openai-standalone'
      ? Math.min(question.keepTailTokens ?? 16_000, question.promptTokens)
      : 0;
  const nextPromptTokens = clearing
    ? Math.max(0, question.promptTokens - (question.clearableTokens ?? 0))
    : Math.min(question.promptTokens, summary + tail);
  const afterDollars = nextPromptTokens * write + nextPromptTokens * read * Math.max(0, ahead - 1);
  return {
    mechanism: question.mechanism,
    pass,
    nextPromptTokens,
    afterDollars,
    totalDollars: pass.dollars + afterDollars,
    priced: prices !== undefined,
  };
}
