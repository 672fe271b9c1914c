import { describe, expect, it } from 'vitest';
import { compactionModelFor } from './compaction-model.js';
import { OpencodeConfigSchema } from './opencode-config.js';

const session = { providerID: 'anthropic', modelID: 'claude-sonnet-4-5' };

describe('compactionModelFor', () => {
  const config = OpencodeConfigSchema.parse({
    compaction_model: { build: 'anthropic/claude-haiku-4-5', default: 'openrouter/meta/llama-4' },
  });

  it('takes the model configured for the session’s agent', () => {
    expect(compactionModelFor(config, 'build', session)).toEqual({
      providerID: 'anthropic',
      modelID: 'claude-haiku-4-5',
    });
  });

  it('falls back to `default`, keeping the slashes of the model id', () => {
    expect(compactionModelFor(config, 'plan', session)).toEqual({ providerID: 'openrouter', modelID: 'meta/llama-4' });
  });

  it('falls back to the session’s model when nothing is configured', () => {
    expect(compactionModelFor(OpencodeConfigSchema.parse({}), 'build', session)).toEqual(session);
  });

  it('rejects a model without its provider', () => {
    expect(OpencodeConfigSchema.safeParse({ compaction_model: { build: 'claude-haiku-4-5' } }).success).toBe(false);
  });
});
