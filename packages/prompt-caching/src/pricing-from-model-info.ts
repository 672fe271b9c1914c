import type { ModelInfo, ModelPrices } from '@ctxhost/core';
import type { ModelPricing } from './default-pricing.js';
import { minCacheableTokens } from './min-cacheable-tokens.js';
import { normalizeModelName } from './normalize-model-name.js';

/**
 * The registry's prices (USD per million tokens) as this package's multipliers.
 * No cache-read price: reads cost full input; no cache-write price: writes cost
 * input (OpenAI, Gemini); a Claude model's 1-hour write is 2× input (Anthropic, Bedrock, Vertex).
 */
export function pricingFromModelInfo(info: ModelInfo): ModelPricing | undefined {
  if (info.pricing === undefined || info.pricing.input <= 0) return undefined;
  const minimum = minCacheableTokens(normalizeModelName(info.id));
  const claude = /claude/i.test(info.id);
  const base = fromPrices(info.pricing, claude, minimum);
  // The tier only applies where a prompt can pass it: Gemini Pro's 1M window, Sonnet's `[1m]` variant.
  const tier =
    info.longContext !== undefined && info.contextWindow > info.longContext.aboveTokens ? info.longContext : undefined;
  return tier === undefined
    ? base
    : { ...base, longContext: { aboveTokens: tier.aboveTokens, pricing: fromPrices(tier.pricing, claude, minimum) } };
}

function fromPrices(prices: ModelPrices, claude: boolean, minimum: number): Omit<ModelPricing, 'longContext'> {
  const cacheWrite5mMultiplier = prices.cacheWrite === undefined ? 1 : ratio(prices.cacheWrite, prices.input);
  return {
    inputPerMTok: prices.input,
    outputPerMTok: prices.output,
    cacheWrite5mMultiplier,
    cacheWrite1hMultiplier: claude ? 2 : cacheWrite5mMultiplier,
    cacheReadMultiplier: prices.cacheRead === undefined ? 1 : ratio(prices.cacheRead, prices.input),
    minCacheableTokens: minimum,
  };
}

/** 0.3 / 3 is 0.09999999999999999 in floating point; prices have a few significant digits, so round. */
function ratio(price: number, input: number): number {
  return Math.round((price / input) * 1e6) / 1e6;
}
