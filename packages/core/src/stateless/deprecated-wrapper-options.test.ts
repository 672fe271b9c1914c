import { describe, expect, it } from 'vitest';
import { foldDeprecatedWrapperOptions } from './deprecated-wrapper-options.js';

describe('foldDeprecatedWrapperOptions', () => {
  it('leaves the config as given when no old option is set', () => {
    const config = { compression: { threshold: 0.7 } };
    expect(foldDeprecatedWrapperOptions(config, {})).toBe(config);
    expect(foldDeprecatedWrapperOptions(undefined, {})).toBeUndefined();
  });

  it('folds maxRecoveries into the cascade’s re-sends and models into config.models; the config’s own values win', () => {
    const config = {
      models: { 'gpt-4o': { contextWindow: 64_000 } },
      hooks: { 'anthropic-auto-compact': { initial_delay_ms: 0 }, 'session-hygiene': { enabled: false } },
    };
    const folded = foldDeprecatedWrapperOptions(config, {
      maxRecoveries: 5,
      models: { 'gpt-4o': { contextWindow: 8_000 }, mine: { contextWindow: 32_000 } },
    });
    expect(folded).toEqual({
      models: { 'gpt-4o': { contextWindow: 64_000 }, mine: { contextWindow: 32_000 } },
      hooks: {
        'anthropic-auto-compact': { max_retry_attempts: 5, initial_delay_ms: 0 },
        'session-hygiene': { enabled: false },
      },
    });
    expect(
      foldDeprecatedWrapperOptions(
        { hooks: { 'anthropic-auto-compact': { max_retry_attempts: 1 } } },
        { maxRecoveries: 5 },
      )?.hooks,
    ).toEqual({ 'anthropic-auto-compact': { max_retry_attempts: 1 } });
  });
});
