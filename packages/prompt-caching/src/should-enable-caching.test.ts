import { describe, expect, it } from 'vitest';
import { cachingStatusLine, shouldEnableCaching, type CachingTarget } from './should-enable-caching.js';

describe('shouldEnableCaching', () => {
  const cases: { target: CachingTarget; enabled: boolean; native: boolean }[] = [
    { target: { model: 'claude-sonnet-4-5', provider: 'anthropic' }, enabled: true, native: true },
    {
      target: { model: 'claude-sonnet-4-5', provider: 'anthropic', baseUrl: 'http://127.0.0.1:8080' },
      enabled: true,
      native: true,
    },
    { target: { model: 'anthropic/claude-sonnet-4.5', provider: 'openrouter' }, enabled: true, native: false },
    {
      target: { model: 'anthropic/claude-sonnet-4.5', provider: 'custom', baseUrl: 'https://openrouter.ai/api/v1' },
      enabled: true,
      native: false,
    },
    { target: { model: 'anthropic/claude-sonnet-4.5', provider: 'litellm' }, enabled: false, native: false },
    {
      target: { model: 'anthropic/claude-sonnet-4.5', provider: 'litellm', gateways: ['litellm'] },
      enabled: true,
      native: false,
    },
    {
      target: { model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0', provider: 'openrouter' },
      enabled: true,
      native: false,
    },
    { target: { model: 'gpt-4o', provider: 'openrouter' }, enabled: false, native: false },
    { target: { model: 'gpt-4o', provider: 'anthropic' }, enabled: false, native: true },
    { target: { model: 'my-claudeish-model', provider: 'anthropic' }, enabled: false, native: true },
  ];

  it.each(cases)('$target.model via $target.provider → enabled $enabled', ({ target, enabled, native }) => {
    const decision = shouldEnableCaching(target);
    expect(decision.enabled).toBe(enabled);
    expect(decision.native).toBe(native);
    expect(decision.reason === undefined).toBe(enabled);
  });

  it('states the model, provider and TTL in the status line', () => {
    expect(cachingStatusLine(shouldEnableCaching({ model: 'claude-sonnet-4-5', provider: 'anthropic' }), '5m')).toBe(
      'prompt caching enabled (claude-sonnet-4-5, anthropic, TTL 5m)',
    );
    expect(cachingStatusLine(shouldEnableCaching({ model: 'gpt-4o', provider: 'openai' }), '1h')).toBe(
      'prompt caching disabled (gpt-4o, openai: not a Claude model)',
    );
  });
});
