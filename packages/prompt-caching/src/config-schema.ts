import { defineConfigSection } from '@ctxhost/core';
import { z } from 'zod';
import {
  DEFAULT_PRICING,
  STANDARD_CACHE_MULTIPLIERS,
  type ModelPricing,
  type PricingTable,
} from './default-pricing.js';
import { DEFAULT_MIN_CACHEABLE_TOKENS } from './min-cacheable-tokens.js';
import { normalizeModelName } from './find-model-pricing.js';
import { DEFAULT_CACHING_GATEWAYS } from './should-enable-caching.js';

/** The hook's name: its plugin name, its taps and its config key (`hooks.prompt-caching`). */
export const PROMPT_CACHING = 'prompt-caching';

/** One pricing entry as written in the config file. */
export interface PricingEntryConfig {
  input_per_mtok: number;
  output_per_mtok: number;
  cache_write_5m_multiplier: number;
  cache_write_1h_multiplier: number;
  cache_read_multiplier: number;
  min_cacheable_tokens: number;
}

/** Every default of `hooks.prompt-caching`, in the file's spelling. The schema reads its defaults from here. */
export const PROMPT_CACHING_DEFAULTS = {
  enabled: true,
  gateways: [...DEFAULT_CACHING_GATEWAYS],
  /** None: prices come from the model registry; entries here override it. */
  pricing: {},
} satisfies { enabled: boolean; gateways: string[]; pricing: Record<string, PricingEntryConfig> };

const dollars = z
  .number({ error: 'dollars per million tokens (a number >= 0)' })
  .min(0, { error: 'dollars per million tokens (a number >= 0)' });
const multiplier = z
  .number({ error: 'a multiplier of the input price (a number >= 0)' })
  .min(0, { error: 'a multiplier of the input price (a number >= 0)' });
const tokens = z
  .number({ error: 'a whole number of tokens >= 0' })
  .int({ error: 'a whole number of tokens >= 0' })
  .min(0, { error: 'a whole number of tokens >= 0' });

export const PricingEntrySchema = z.strictObject({
  input_per_mtok: dollars,
  output_per_mtok: dollars,
  cache_write_5m_multiplier: multiplier.default(STANDARD_CACHE_MULTIPLIERS.cacheWrite5mMultiplier),
  cache_write_1h_multiplier: multiplier.default(STANDARD_CACHE_MULTIPLIERS.cacheWrite1hMultiplier),
  cache_read_multiplier: multiplier.default(STANDARD_CACHE_MULTIPLIERS.cacheReadMultiplier),
  min_cacheable_tokens: tokens.default(DEFAULT_MIN_CACHEABLE_TOKENS),
});

/**
 * `hooks.prompt-caching`. `pricing` entries are merged over the defaults by
 * model key, so a file lists only the models it adds or re-prices.
 */
export const PromptCachingConfigSchema = z.strictObject({
  enabled: z.boolean({ error: 'true or false' }).default(PROMPT_CACHING_DEFAULTS.enabled),
  gateways: z
    .array(z.string({ error: 'a provider name' }).min(1, { error: 'a provider name' }), {
      error: 'a list of provider names',
    })
    .default(() => [...PROMPT_CACHING_DEFAULTS.gateways]),
  pricing: z
    .record(z.string().min(1), PricingEntrySchema, { error: 'a mapping of model names to prices' })
    .default(() => structuredClone(PROMPT_CACHING_DEFAULTS.pricing)),
});

export type PromptCachingConfig = z.output<typeof PromptCachingConfigSchema>;

export const promptCachingConfigSection = defineConfigSection({
  key: PROMPT_CACHING,
  schema: PromptCachingConfigSchema,
});

/** The pricing table a section describes: its entries (keys normalised, `claude-sonnet-4.5` → `claude-sonnet-4-5`) over DEFAULT_PRICING (the registry's Anthropic models). */
export function pricingFromConfig(section: Pick<PromptCachingConfig, 'pricing'>): PricingTable {
  const table: Record<string, ModelPricing> = { ...DEFAULT_PRICING };
  for (const [model, entry] of Object.entries(section.pricing)) {
    table[normalizeModelName(model)] = {
      inputPerMTok: entry.input_per_mtok,
      outputPerMTok: entry.output_per_mtok,
      cacheWrite5mMultiplier: entry.cache_write_5m_multiplier,
      cacheWrite1hMultiplier: entry.cache_write_1h_multiplier,
      cacheReadMultiplier: entry.cache_read_multiplier,
      minCacheableTokens: entry.min_cacheable_tokens,
    };
  }
  return Object.freeze(table);
}
