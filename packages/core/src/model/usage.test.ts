import { describe, expect, it } from 'vitest';
import { emptyUsage, promptTokens } from './usage.js';

describe('promptTokens', () => {
  it('adds cached and uncached input, as the API counts the prompt', () => {
    expect(
      promptTokens({ inputTokens: 10, outputTokens: 99, cacheCreationInputTokens: 200, cacheReadInputTokens: 3000 }),
    ).toBe(3210);
  });
  it('is zero for empty usage', () => {
    expect(promptTokens(emptyUsage())).toBe(0);
  });
});
