import { describe, expect, it } from 'vitest';
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

  it('reports the ratio of tokens to window', () => {
    expect(measureContextUsage(sessionWith(700, 1000), { model: {} })).toEqual({ known: true, tokens: 700, window: 1000, ratio: 0.7, source: 'reported' });
  });

  it('says when the window is unknown rather than guessing', () => {
    expect(measureContextUsage(sessionWith(700, undefined), { model: {} })).toEqual({ known: false, tokens: 700, source: 'reported' });
  });

  it('formats percentages down and tokens with separators', () => {
    expect(formatPercent(0.7999)).toBe('79%');
    expect(formatTokens(162000)).toBe('162,000');
  });
});
