import type { ContextEngine, ContextEngineFactory, CtxhostConfig, Summarizer } from '@ctxhost/core';
import { applyCompaction } from './apply-compaction.js';
import type { CompactionStrategy } from './compaction-strategy.js';

/** What a strategy is built from for one compaction: the host's config and summarizer, and the token budget. */
export interface StrategyBuildOptions {
  config: CtxhostConfig;
  summarizer: Summarizer | undefined;
  /** Tokens the result should fit under: the caller's target, else the compressor's tail budget for the window. */
  budget: number;
}

/**
 * A strategy as a host context engine, so a host runs it where it runs the compressor
 * (`runCompaction`: the `compaction.before` taps, the fidelity review, the events).
 * The strategy is built anew for each compaction with a budget derived from the window
 * (`threshold × target_ratio × window`, the compressor's tail budget) unless the caller
 * gives a target. It compresses above `compression.threshold` of the window.
 */
export function strategyEngineFactory(
  name: string,
  build: (options: StrategyBuildOptions) => CompactionStrategy,
): ContextEngineFactory {
  return ({ config, summarizer }): ContextEngine => ({
    name,
    shouldCompress: (state) =>
      config.compression.enabled &&
      state.contextWindow !== undefined &&
      state.promptTokens > state.contextWindow * config.compression.threshold,
    async compress(messages, context) {
      const budget =
        context.targetTokens ??
        Math.floor(context.contextWindow * config.compression.threshold * config.compression.targetRatio);
      const strategy = build({ config, summarizer: context.summarizer ?? summarizer, budget });
      const result = await applyCompaction(messages, strategy, {
        counter: context.counter,
        reason: context.reason,
        redaction: config.redaction,
        ...(context.signal === undefined ? {} : { signal: context.signal }),
      });
      return { messages: result.messages, report: { ...result.report, engine: name } };
    },
  });
}
