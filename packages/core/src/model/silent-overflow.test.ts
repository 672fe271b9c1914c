import { describe, expect, it } from 'vitest';
import { detectSilentOverflow } from './silent-overflow.js';

const usage = (input: number, output: number) => ({
  inputTokens: input,
  outputTokens: output,
  cacheCreationInputTokens: 0,
  cacheReadInputTokens: 0,
});

describe('detectSilentOverflow', () => {
  it.each([
    ['empty reply at the window (MiMo)', usage(19_900, 0), 20_000, true, 'empty_at_window'],
    ['no output tokens at the window', usage(20_000, 0), 20_000, false, 'empty_at_window'],
    ['answer over the window (z.ai)', usage(25_000, 300), 20_000, false, 'over_window'],
    ['empty reply well under the window', usage(5_000, 0), 20_000, true, undefined],
    ['a normal answer', usage(15_000, 300), 20_000, false, undefined],
    ['no window known', usage(25_000, 300), undefined, false, undefined],
  ] as const)('%s', (_name, used, window, empty, kind) => {
    expect(detectSilentOverflow({ usage: used, contextWindow: window, empty })?.kind).toBe(kind);
  });

  it('gives an empty reply at the window the numbers a recovery needs', () => {
    expect(detectSilentOverflow({ usage: usage(19_950, 0), contextWindow: 20_000, empty: true })).toMatchObject({
      error: { kind: 'context_overflow', currentTokens: 19_950, maxTokens: 20_000 },
    });
  });
});
