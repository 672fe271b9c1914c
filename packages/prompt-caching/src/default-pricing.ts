import { defaultModelRegistry } from '@ctxhost/core';
import { pricingFromModelInfo } from './pricing-from-model-info.js';

/**
 * One model's prices. Dollars per million tokens for base input and output;
 * cache prices as multipliers of the base input price; the minimum prompt
 * length (tokens) below which the API caches nothing. `longContext`: the
 * prices of a prompt longer than `aboveTokens` (Sonnet 4/4.5 with 1M, Gemini Pro).
 */
export interface ModelPricing {
  inputPerMTok: number;
  outputPerMTok: number;
  cacheWrite5mMultiplier: number;
  cacheWrite1hMultiplier: number;
  cacheReadMultiplier: number;
  minCacheableTokens: number;
  longContext?: { aboveTokens: number; pricing: Omit<ModelPricing, 'longContext'> };
}

/** A pricing table keyed by model-name prefix (`claude-sonnet-4-5` matches `claude-sonnet-4-5-20250929`). */
export type PricingTable = Readonly<Record<string, ModelPricing>>;

/** The multipliers Anthropic publishes for most models. */
export const STANDARD_CACHE_MULTIPLIERS = {
  cacheWrite5mMultiplier: 1.25,
  cacheWrite1hMultiplier: 2,
  cacheReadMultiplier: 0.1,
} as const;

/**
 * Anthropic's models as the model registry (`getModelInfo` in
 * `@ctxhost/core`) prices them, keyed by id. Every other model is priced from
 * the registry on demand; this table stays for code that reads it by key.
 * The config (`hooks.prompt-caching.pricing`, or core's `models:`) overrides any entry.
 */
export const DEFAULT_PRICING: PricingTable = Object.freeze(
  Object.fromEntries(
    defaultModelRegistry()
      .list()
      .filter((info) => info.provider === 'anthropic')
      .flatMap((info) => {
        const pricing = pricingFromModelInfo(info);
        return pricing === undefined ? [] : [[info.id, pricing] as const];
      }),
  ),
);
