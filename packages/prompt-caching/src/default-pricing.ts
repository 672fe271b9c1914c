/**
 * One model's prices. Dollars per million tokens for base input and output;
 * cache prices as multipliers of the base input price; the minimum prompt
 * length (tokens) below which the API caches nothing.
 */
export interface ModelPricing {
  inputPerMTok: number;
  outputPerMTok: number;
  cacheWrite5mMultiplier: number;
  cacheWrite1hMultiplier: number;
  cacheReadMultiplier: number;
  minCacheableTokens: number;
}

/** A pricing table keyed by model-name prefix (`claude-sonnet-4-5` matches `claude-sonnet-4-5-20250929`). */
export type PricingTable = Readonly<Record<string, ModelPricing>>;

/** The multipliers Anthropic publishes for most models. */
export const STANDARD_CACHE_MULTIPLIERS = {
  cacheWrite5mMultiplier: 1.25,
  cacheWrite1hMultiplier: 2,
  cacheReadMultiplier: 0.1,
} as const;

function price(inputPerMTok: number, outputPerMTok: number, minCacheableTokens: number): ModelPricing {
  return { inputPerMTok, outputPerMTok, ...STANDARD_CACHE_MULTIPLIERS, minCacheableTokens };
}

/**
 * Anthropic's list prices (USD per million tokens) and minimum cacheable
 * lengths. Data, not code: prices change, so the config
 * (`hooks.prompt-caching.pricing`) overrides or extends any entry.
 * Sonnet's long-context (> 200k) prices are not modelled.
 */
export const DEFAULT_PRICING: PricingTable = Object.freeze({
  'claude-opus-4-5': price(5, 25, 4096),
  'claude-opus-4-1': price(15, 75, 1024),
  'claude-opus-4': price(15, 75, 1024),
  'claude-sonnet-4-5': price(3, 15, 1024),
  'claude-sonnet-4': price(3, 15, 1024),
  'claude-3-7-sonnet': price(3, 15, 1024),
  'claude-haiku-4-5': price(1, 5, 4096),
  'claude-3-5-haiku': price(0.8, 4, 2048),
  'claude-3-haiku': price(0.25, 1.25, 2048),
});
