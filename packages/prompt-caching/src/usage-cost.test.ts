import type { Usage } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { UnknownModelPricingError, UsageInvalidError } from './errors.js';
import { findModelPricing } from './find-model-pricing.js';
import { sessionCost, usageCost } from './usage-cost.js';

function usage(
  inputTokens: number,
  cacheCreationInputTokens: number,
  cacheReadInputTokens: number,
  outputTokens: number,
): Usage {
  return { inputTokens, cacheCreationInputTokens, cacheReadInputTokens, outputTokens };
}

describe('sessionCost', () => {
  // Three turns on Sonnet 4.5 ($3 in, $15 out per million): the first writes the cache,
  // the next two read it back and write what each turn added.
  const turns = [
    usage(200_000, 1_000_000, 0, 50_000),
    usage(30_000, 150_000, 1_000_000, 80_000),
    usage(10_000, 90_000, 1_150_000, 40_000),
  ];

  it('prices a known sequence to the cent, by kind', () => {
    const report = sessionCost(turns, 'claude-sonnet-4-5-20250929');
    expect(report.tokens).toEqual({
      uncachedInput: 240_000,
      cacheWrite5m: 1_240_000,
      cacheWrite1h: 0,
      cacheRead: 2_150_000,
      output: 170_000,
      prompt: 3_630_000,
    });
    // 240k × $3 = $0.72; 1.24M × $3.75 = $4.65; 2.15M × $0.30 = $0.645; 170k × $15 = $2.55
    expect(report.dollars.uncachedInput).toBeCloseTo(0.72, 6);
    expect(report.dollars.cacheWrite5m).toBeCloseTo(4.65, 6);
    expect(report.dollars.cacheRead).toBeCloseTo(0.645, 6);
    expect(report.dollars.output).toBeCloseTo(2.55, 6);
    expect(report.dollars.total).toBeCloseTo(8.565, 6);
    // without caching: 3.63M × $3 = $10.89, plus $2.55 output
    expect(report.withoutCaching).toBeCloseTo(13.44, 6);
    expect(report.dollarsSaved).toBeCloseTo(4.875, 6);
    expect(report.cacheHitRatio).toBeCloseTo(2_150_000 / 3_630_000, 9);
    expect(report.requests).toBe(3);
  });

  it('prices 1-hour writes at 2× and 5-minute writes at 1.25× from the TTL split (Opus 4.5, $5 / $25)', () => {
    const split: Usage = {
      ...usage(100_000, 2_000_000, 4_000_000, 200_000),
      cacheCreation: { ephemeral5mInputTokens: 500_000, ephemeral1hInputTokens: 1_500_000 },
    };
    const report = usageCost(split, 'claude-opus-4-5');
    // $0.50 + 0.5M × $6.25 = $3.125 + 1.5M × $10 = $15 + 4M × $0.50 = $2 + 0.2M × $25 = $5
    expect(report.dollars.cacheWrite5m).toBeCloseTo(3.125, 6);
    expect(report.dollars.cacheWrite1h).toBeCloseTo(15, 6);
    expect(report.dollars.total).toBeCloseTo(25.625, 6);
    expect(report.withoutCaching).toBeCloseTo(35.5, 6);
  });

  it('treats unsplit writes as 1-hour writes when told the TTL', () => {
    const report = usageCost(usage(0, 1_000_000, 0, 0), 'claude-haiku-4-5', { writeTtl: '1h' });
    expect(report.tokens.cacheWrite1h).toBe(1_000_000);
    expect(report.dollars.total).toBeCloseTo(2, 6);
  });

  it('reports a negative saving when writes are never read back', () => {
    const report = usageCost(usage(0, 1_000_000, 0, 0), 'claude-3-5-haiku-20241022');
    expect(report.dollars.total).toBeCloseTo(1, 6);
    expect(report.dollarsSaved).toBeCloseTo(-0.2, 6);
  });

  it('is zero for no usage, with a hit ratio of 0', () => {
    const report = sessionCost([], 'claude-sonnet-4-5');
    expect(report.dollars.total).toBe(0);
    expect(report.cacheHitRatio).toBe(0);
  });

  it('names the config key to add for an unknown model', () => {
    expect(() => usageCost(usage(1, 0, 0, 1), 'my-local-model')).toThrow(UnknownModelPricingError);
    expect(() => usageCost(usage(1, 0, 0, 1), 'my-local-model')).toThrow(/models\.my-local-model\.pricing/);
  });

  it.each([
    ['negative', -1],
    ['fractional', 1.5],
    ['not a number', Number.NaN],
  ])('rejects a %s token count with UsageInvalidError', (_, bad) => {
    expect(() => sessionCost([usage(1, 0, 0, 1), usage(bad, 0, 0, 1)], 'claude-sonnet-4-5')).toThrow(UsageInvalidError);
    expect(() => sessionCost([usage(1, 0, 0, 1), usage(bad, 0, 0, 1)], 'claude-sonnet-4-5')).toThrow(
      /usages\[1\]\.inputTokens/,
    );
  });
});

describe('findModelPricing', () => {
  it.each([
    ['claude-sonnet-4-5-20250929', 3, 1024],
    ['anthropic/claude-sonnet-4.5', 3, 1024],
    ['us.anthropic.claude-sonnet-4-5-20250929-v1:0', 3, 1024],
    ['claude-sonnet-4-5@20250929', 3, 1024],
    ['claude-opus-4-5-20251101', 5, 4096],
    ['claude-opus-4-1-20250805', 15, 1024],
    ['claude-opus-4-20250514', 15, 1024],
    ['claude-haiku-4-5', 1, 4096],
    ['claude-3-7-sonnet-latest', 3, 1024],
    ['claude-3-5-haiku-20241022', 0.8, 2048],
  ])('%s → $%d input, %d minimum', (model, input, minimum) => {
    expect(findModelPricing(model)).toMatchObject({
      inputPerMTok: input,
      minCacheableTokens: minimum,
      cacheWrite5mMultiplier: 1.25,
      cacheWrite1hMultiplier: 2,
      cacheReadMultiplier: 0.1,
    });
  });

  it('does not match a different model that only shares letters', () => {
    expect(findModelPricing('claude-sonnet-45')).toBeUndefined();
    expect(findModelPricing('my-local-model')).toBeUndefined();
  });

  it('prices any model the registry knows, with its own cache discounts', () => {
    // OpenAI: cached input at half price (gpt-4o), writes not billed apart; DeepSeek through the registry too.
    expect(findModelPricing('gpt-4o')).toMatchObject({
      inputPerMTok: 2.5,
      outputPerMTok: 10,
      cacheReadMultiplier: 0.5,
      cacheWrite5mMultiplier: 1,
      minCacheableTokens: 1024,
    });
    expect(findModelPricing('openai/gpt-5-2025-08-07')).toMatchObject({ inputPerMTok: 1.25, cacheReadMultiplier: 0.1 });
    expect(findModelPricing('gemini-2.5-flash')?.inputPerMTok).toBeGreaterThan(0);
  });

  it('prices config models: entries over the registry', () => {
    expect(
      findModelPricing('gpt-4o', undefined, { 'gpt-4o': { pricing: { input: 1, output: 2, cacheRead: 0.25 } } }),
    ).toMatchObject({ inputPerMTok: 1, cacheReadMultiplier: 0.25 });
    expect(
      findModelPricing('my-local-model', undefined, {
        'my-local-model': { contextWindow: 8192, pricing: { input: 0.5, output: 1 } },
      }),
    ).toMatchObject({ inputPerMTok: 0.5, cacheReadMultiplier: 1 });
  });

  it('bills a request past the long-context threshold at that tier, request by request', () => {
    // Sonnet 4.5 with the 1M window: $3 / $15 up to 200k prompt tokens, $6 / $22.50 above.
    const short = usage(100_000, 0, 0, 1_000_000);
    const long = usage(300_000, 0, 0, 1_000_000);
    const report = sessionCost([short, long], 'claude-sonnet-4-5[1m]');
    expect(report.dollars.uncachedInput).toBeCloseTo(0.3 + 1.8, 6);
    expect(report.dollars.output).toBeCloseTo(15 + 22.5, 6);
    expect(sessionCost([long], 'claude-sonnet-4-5').dollars.uncachedInput).toBeCloseTo(0.9, 6);
  });
});
