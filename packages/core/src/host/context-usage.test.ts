import { describe, expect, it } from 'vitest';
import { createHost } from './create-host.js';
import { contextWindowOf, formatPercent, formatTokens, measureContextUsage } from './context-usage.js';
import type { PromptSize } from '../tokens/token-counter.js';

function sessionWith(tokens: number, contextWindow: number | undefined) {
  const size: PromptSize = { tokens, source: 'reported', reportedTokens: tokens, estimatedTokens: 0 };
  return { contextWindow, promptSize: () => size };
}

describe('measureContextUsage', () => {
  it('prefers the session window over the configured one', () => {
    expect(contextWindowOf({ contextWindow: 1000 }, { model: { contextLength: 5000 } })).toBe(1000);
    expect(contextWindowOf({ contextWindow: undefined }, { model: { contextLength: 5000 } })).toBe(5000);
  });

  it('finds the window from the model name in the registry, with the config models: section over it', () => {
    expect(contextWindowOf({ contextWindow: undefined }, { model: { name: 'claude-sonnet-4-5-20250929' } })).toBe(
      200_000,
    );
    expect(
      contextWindowOf(
        { contextWindow: undefined },
        { model: { name: 'gpt-4o' }, models: { 'gpt-4o': { contextWindow: 64_000 } } },
      ),
    ).toBe(64_000);
    expect(
      contextWindowOf({ contextWindow: undefined }, { model: { name: 'claude-sonnet-4-5', contextLength: 5000 } }),
    ).toBe(5000);
    expect(contextWindowOf({ contextWindow: undefined }, { model: { name: 'my-local-model' } })).toBeUndefined();
  });

  it('opens host sessions with the registry window of model.name', async () => {
    const host = createHost({ config: { model: { name: 'anthropic/claude-opus-4-6' } } });
    expect((await host.session('s')).contextWindow).toBe(1_000_000);
    await host.dispose();
  });

  it('reports the ratio of tokens to window', () => {
    expect(measureContextUsage(sessionWith(700, 1000), { model: {} })).toEqual({
      known: true,
      tokens: 700,
      window: 1000,
      ratio: 0.7,
      source: 'reported',
    });
  });

  it('says when the window is unknown rather than guessing', () => {
    expect(measureContextUsage(sessionWith(700, undefined), { model: {} })).toEqual({
      known: false,
      tokens: 700,
      source: 'reported',
    });
  });

  it('formats percentages down and tokens with separators', () => {
    expect(formatPercent(0.7999)).toBe('79%');
    expect(formatTokens(162000)).toBe('162,000');
  });
});
