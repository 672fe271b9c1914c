import { describe, expect, it } from 'vitest';
import { nativeProviderOptions, withCompactionBeta } from './native-provider-options.js';

describe('native provider options for a model that names no provider', () => {
  it('leaves the call options as they are instead of throwing', () => {
    const options = { anthropic: { thinking: { type: 'enabled' } } };
    expect(withCompactionBeta(options, true, undefined)).toBe(options);
  });

  it('says Anthropic context management cannot go through it', () => {
    const carried = nativeProviderOptions(
      { vendor: 'anthropic', betas: [], contextManagement: { edits: [] } },
      undefined,
      undefined,
    );
    expect(carried).toEqual({ off: expect.stringContaining('@ai-sdk/anthropic') });
  });
});
