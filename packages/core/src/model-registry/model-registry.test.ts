import { describe, expect, it } from 'vitest';
import { createModelRegistry, defaultModelRegistry, getModelInfo } from './model-registry.js';
import { largestStatedLimit } from './model-limit-sources.js';

describe('getModelInfo', () => {
  it.each([
    ['claude-sonnet-4-5', 'anthropic', 'claude-sonnet-4-5', 200_000],
    ['claude-sonnet-4-5-20250929', 'anthropic', 'claude-sonnet-4-5-20250929', 200_000],
    ['claude-sonnet-4.5', 'anthropic', 'claude-sonnet-4-5', 200_000],
    ['anthropic/claude-sonnet-4-5', 'anthropic', 'claude-sonnet-4-5', 200_000],
    ['anthropic/claude-sonnet-4.5', 'anthropic', 'claude-sonnet-4-5', 200_000],
    ['claude-sonnet-4-5@20250929', 'anthropic', 'claude-sonnet-4-5', 200_000],
    ['claude-opus-4-6', 'anthropic', 'claude-opus-4-6', 1_000_000],
    ['claude-haiku-4-5-20251001', 'anthropic', 'claude-haiku-4-5-20251001', 200_000],
    ['openrouter/anthropic/claude-sonnet-4.5', 'openrouter', 'anthropic/claude-sonnet-4.5', 1_000_000],
    ['gpt-4o', 'openai', 'gpt-4o', 128_000],
    ['openai/gpt-5', 'openai', 'gpt-5', 400_000],
    ['gpt-5-2025-08-07', 'openai', 'gpt-5', 400_000],
    ['gpt-5.1', 'openai', 'gpt-5.1', 400_000],
    ['gemini-2.5-pro', 'google', 'gemini-2.5-pro', 1_048_576],
    ['gemini/gemini-2.5-flash', 'google', 'gemini-2.5-flash', 1_048_576],
    ['mistral-large-latest', 'mistral', 'mistral-large-latest', 262_144],
    ['deepseek/deepseek-v4-pro', 'deepseek', 'deepseek-v4-pro', 1_000_000],
    ['grok-4', 'xai', 'grok-4', 256_000],
    ['claude-3-7-sonnet-latest', 'anthropic', 'claude-3-7-sonnet-20250219', 200_000],
    ['claude-3-7-sonnet', 'anthropic', 'claude-3-7-sonnet-20250219', 200_000],
    ['meta-llama/llama-3.3-70b-instruct', 'openrouter', 'meta-llama/llama-3.3-70b-instruct', 131_072],
  ])('%s → %s %s, window %i', (query, provider, id, window) => {
    const info = getModelInfo(query);
    expect(info).toMatchObject({ provider, id, contextWindow: window });
  });

  it('gives prices, output limit and, for OpenAI models, the encoding', () => {
    expect(getModelInfo('claude-sonnet-4-5')).toMatchObject({
      maxOutputTokens: 64_000,
      pricing: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    });
    expect(getModelInfo('gpt-4o')?.tokenizer).toBe('o200k_base');
    expect(getModelInfo('gpt-4')?.tokenizer).toBe('cl100k_base');
    expect(getModelInfo('claude-sonnet-4-5')?.tokenizer).toBeUndefined();
  });

  it('models long-context variants: [1m] for the window, a price tier above 200k', () => {
    expect(getModelInfo('claude-sonnet-4-5')?.contextWindow).toBe(200_000);
    const long = getModelInfo('claude-sonnet-4-5-20250929[1m]');
    expect(long).toMatchObject({
      contextWindow: 1_000_000,
      longContext: { aboveTokens: 200_000, beta: 'context-1m-2025-08-07', pricing: { input: 6, output: 22.5 } },
    });
    expect(getModelInfo('gemini-2.5-pro')?.longContext).toMatchObject({
      aboveTokens: 200_000,
      pricing: { input: 2.5, output: 15 },
    });
    expect(getModelInfo('gpt-4o')?.longContext).toBeUndefined();
  });

  it('is undefined for a model it does not know', () => {
    expect(getModelInfo('my-local-model')).toBeUndefined();
    expect(getModelInfo('claude-sonnet-45')).toBeUndefined();
  });

  it('covers the providers the issue names, with hundreds of models', () => {
    const registry = defaultModelRegistry();
    for (const provider of ['anthropic', 'openai', 'google', 'mistral', 'deepseek', 'xai', 'openrouter'])
      expect(registry.providers).toContain(provider);
    expect(registry.list().length).toBeGreaterThan(500);
  });
});

describe('createModelRegistry with overrides', () => {
  it('overrides fields of a known model under any of its spellings, and adds unknown ones', () => {
    const registry = createModelRegistry({
      overrides: {
        'claude-sonnet-4.5': { contextWindow: 150_000 },
        'my-local-model': { provider: 'vllm', contextWindow: 32_768, maxOutputTokens: 2048 },
      },
    });
    expect(registry.get('claude-sonnet-4-5-20250929')).toMatchObject({ contextWindow: 150_000, pricing: { input: 3 } });
    expect(registry.get('anthropic/claude-sonnet-4-5')?.contextWindow).toBe(150_000);
    expect(registry.get('claude-opus-4-6')?.contextWindow).toBe(1_000_000);
    expect(registry.get('my-local-model')).toEqual({
      id: 'my-local-model',
      provider: 'vllm',
      contextWindow: 32_768,
      maxOutputTokens: 2048,
      limitSources: {
        contextWindow: [{ value: 32_768, source: 'config models:' }],
        maxOutputTokens: [{ value: 2048, source: 'config models:' }],
      },
    });
  });

  it('reads the same through getModelInfo with the config section', () => {
    const models = { 'gpt-4o': { pricing: { input: 1, output: 2 } } };
    expect(getModelInfo('gpt-4o', models)).toMatchObject({ contextWindow: 128_000, pricing: { input: 1, output: 2 } });
    expect(getModelInfo('gpt-4o')?.pricing?.input).toBe(2.5);
  });
});

describe('where a limit came from', () => {
  it('records the data source of each limit and what the SDKs state otherwise', () => {
    const info = getModelInfo('claude-sonnet-4-6')!;
    const source = `${defaultModelRegistry().source.package}@${defaultModelRegistry().source.version}`;
    expect(info.maxOutputTokens).toBe(64_000);
    expect(info.limitSources?.maxOutputTokens[0]).toEqual({ value: 64_000, source });
    expect(info.limitSources?.maxOutputTokens).toContainEqual({
      value: 128_000,
      source: expect.stringMatching(/^@ai-sdk\/anthropic@\d/),
    });
    expect(largestStatedLimit(info, 'maxOutputTokens')).toBe(128_000);
    expect(info.limitSources?.contextWindow).toEqual([{ value: 1_000_000, source }]);
    expect(defaultModelRegistry().source.crossChecked).toEqual(
      expect.arrayContaining([expect.stringMatching(/^@ai-sdk\/anthropic@/)]),
    );
  });

  it('puts a config value first and keeps what the data said', () => {
    const registry = createModelRegistry({ overrides: { 'claude-sonnet-4-6': { maxOutputTokens: 32_000 } } });
    const info = registry.get('claude-sonnet-4-6')!;
    expect(info.maxOutputTokens).toBe(32_000);
    expect(info.limitSources?.maxOutputTokens.map((claim) => claim.source)[0]).toBe('config models:');
    expect(info.limitSources?.maxOutputTokens.map((claim) => claim.value)).toEqual([32_000, 64_000, 128_000, 128_000]);
    const added = createModelRegistry({ overrides: { 'my-local': { contextWindow: 65_536 } } }).get('my-local')!;
    expect(added.limitSources?.contextWindow).toEqual([{ value: 65_536, source: 'config models:' }]);
  });

  it('names the long-context table as the source of a [1m] window', () => {
    const info = getModelInfo('claude-sonnet-4-5[1m]')!;
    expect(info.contextWindow).toBe(1_000_000);
    expect(info.limitSources?.contextWindow[0]?.source).toMatch(/^long-context\.json/);
  });
});
