import { createConfigSchema, readHookSection, toCtxhostConfig, ConfigError } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICING } from './default-pricing.js';
import { findModelPricing } from './find-model-pricing.js';
import {
  PROMPT_CACHING,
  PROMPT_CACHING_DEFAULTS,
  PromptCachingConfigSchema,
  pricingFromConfig,
  promptCachingConfigSection,
} from './config-schema.js';

describe('hooks.prompt-caching config', () => {
  it('parses a missing section to exactly the defaults', () => {
    expect(PromptCachingConfigSchema.prefault({}).parse(undefined)).toEqual(PROMPT_CACHING_DEFAULTS);
    expect(pricingFromConfig(PROMPT_CACHING_DEFAULTS)).toEqual(DEFAULT_PRICING);
  });

  it('merges configured prices over the defaults, normalising the model key and filling multipliers', () => {
    const section = PromptCachingConfigSchema.parse({
      pricing: {
        'claude-sonnet-4.5': { input_per_mtok: 2.5, output_per_mtok: 12 },
        'claude-next-1': {
          input_per_mtok: 4,
          output_per_mtok: 20,
          cache_read_multiplier: 0.05,
          min_cacheable_tokens: 2048,
        },
      },
    });
    const table = pricingFromConfig(section);
    expect(findModelPricing('claude-sonnet-4-5-20250929', table)).toMatchObject({
      inputPerMTok: 2.5,
      outputPerMTok: 12,
      cacheWrite5mMultiplier: 1.25,
    });
    expect(findModelPricing('claude-next-1', table)).toMatchObject({
      inputPerMTok: 4,
      cacheReadMultiplier: 0.05,
      minCacheableTokens: 2048,
    });
    expect(findModelPricing('claude-haiku-4-5', table)).toEqual(DEFAULT_PRICING['claude-haiku-4-5']);
  });

  it('reports bad keys and values through core as a located ConfigError', () => {
    const schema = createConfigSchema([promptCachingConfigSection]);
    const file = schema.parse({ hooks: { [PROMPT_CACHING]: {} } });
    expect(file.hooks[PROMPT_CACHING]).toEqual(PROMPT_CACHING_DEFAULTS);
    const config = toCtxhostConfig(schema.parse({}));
    config.hooks[PROMPT_CACHING] = {
      pricing: { 'claude-x': { input_per_mtok: 'cheap', output_per_mtok: 1 } },
      enabeld: true,
    };
    let caught: unknown;
    try {
      readHookSection(config, PROMPT_CACHING, PromptCachingConfigSchema);
    } catch (error) {
      caught = error;
    }
    expect(ConfigError.isInstance(caught)).toBe(true);
    expect((caught as ConfigError).message).toMatch(/hooks\.prompt-caching\.pricing\.claude-x\.input_per_mtok/);
    expect((caught as ConfigError).message).toMatch(/enabeld/);
  });

  it('rejects a cache TTL other than 5m or 1h in the core section', () => {
    expect(createConfigSchema().safeParse({ prompt_caching: { cache_ttl: '10m' } }).success).toBe(false);
    expect(createConfigSchema().parse({ prompt_caching: { cache_ttl: '1h' } }).prompt_caching.cache_ttl).toBe('1h');
  });
});
