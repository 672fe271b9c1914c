import { describe, expect, it } from 'vitest';
import { predictNativeCost } from './predict-native-cost.js';

describe('predictNativeCost', () => {
  const base = { model: 'claude-sonnet-4-5', promptTokens: 150_000, cachedTokens: 140_000, requestsAhead: 10 };

  it('prices a compaction pass (prompt in, summary out) and the shorter prefix after it, by the registry', () => {
    const onDemand = predictNativeCost({ ...base, mechanism: 'anthropic-on-demand', keepTailTokens: 20_000 });
    expect(onDemand.priced).toBe(true);
    expect(onDemand.nextPromptTokens).toBe(24_000);
    // $3 / MTok input, $0.30 read, $15 output (claude-sonnet-4-5).
    expect(onDemand.pass.dollars).toBeCloseTo(10_000 * 3e-6 + 140_000 * 0.3e-6 + 4_000 * 15e-6, 6);
    const threshold = predictNativeCost({ ...base, mechanism: 'anthropic-threshold' });
    expect(threshold.nextPromptTokens).toBe(4_000);
    expect(threshold.totalDollars).toBeLessThan(onDemand.totalDollars);
  });

  it('bills clearing tool uses no pass, only the rewritten prefix', () => {
    const clearing = predictNativeCost({ ...base, mechanism: 'anthropic-clear-tool-uses', clearableTokens: 50_000 });
    expect(clearing.pass.dollars).toBe(0);
    expect(clearing.nextPromptTokens).toBe(100_000);
  });

  it('says when the model has no prices', () => {
    expect(predictNativeCost({ ...base, model: 'no-such-model', mechanism: 'openai-inline' }).priced).toBe(false);
  });
});
