import { ConfigFileSchema, DEFAULT_CONFIG, toCtxhostConfig } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { configValues, toFileShape } from './config-values.js';

describe('toFileShape', () => {
  it('gives back the keys of a parsed config file, for every key of the defaults', () => {
    const file = ConfigFileSchema.parse({
      model: { name: 'm', context_length: 1000 },
      auxiliary: { compression: { model: 'h', base_url: 'http://x' } },
      store: { path: '/s' },
    });
    expect(toFileShape(toCtxhostConfig(file))).toEqual(file);
    expect(toFileShape(DEFAULT_CONFIG)).toEqual(ConfigFileSchema.parse({}));
  });

  it('keeps hook section keys as written', () => {
    expect(
      toFileShape({ ...DEFAULT_CONFIG, hooks: { 'context-window-monitor': { warn_at: 0.7, someKey: 1 } } }).hooks,
    ).toEqual({ 'context-window-monitor': { warn_at: 0.7, someKey: 1 } });
  });
});

describe('configValues', () => {
  it('lists each leaf with the file that set it, or default; lists are one value', () => {
    const config = {
      ...DEFAULT_CONFIG,
      compression: { ...DEFAULT_CONFIG.compression, threshold: 0.6 },
      disabledHooks: ['session-hygiene' as const],
    };
    const values = configValues(config, {
      'compression.threshold': '/p/.ctxhost/config.yaml',
      disabled_hooks: '/u/config.yaml',
    });
    expect(values).toContainEqual({ key: 'compression.threshold', value: 0.6, source: '/p/.ctxhost/config.yaml' });
    expect(values).toContainEqual({ key: 'compression.target_ratio', value: 0.2, source: 'default' });
    expect(values).toContainEqual({ key: 'disabled_hooks', value: ['session-hygiene'], source: '/u/config.yaml' });
    expect(values.map((value) => value.key)).not.toContain('model');
  });

  it('shows a named table as one value, from every file that set part of it', () => {
    const pricing = { 'my-model': { input_per_mtok: 1 }, other: { input_per_mtok: 2 } };
    const values = configValues(
      { ...DEFAULT_CONFIG, hooks: { 'prompt-caching': { enabled: true, pricing } } },
      {
        'hooks.prompt-caching.pricing.my-model.input_per_mtok': '/u.yaml',
        'hooks.prompt-caching.pricing.other.input_per_mtok': '/p.yaml',
      },
    );
    expect(values.filter((value) => value.key.startsWith('hooks.'))).toEqual([
      { key: 'hooks.prompt-caching.enabled', value: true, source: 'default' },
      { key: 'hooks.prompt-caching.pricing', value: pricing, source: '/u.yaml, /p.yaml' },
    ]);
  });
});
