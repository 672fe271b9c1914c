import { describe, expect, it, vi } from 'vitest';
import { sayWarningsOnce } from './say-warnings-once.js';

describe('sayWarningsOnce', () => {
  it('says each distinct console.warn once, counts the repeats, and restores console.warn', async () => {
    const printed: unknown[][] = [];
    const original = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void printed.push(args));
    const written: string[] = [];
    try {
      const result = await sayWarningsOnce(
        async () => {
          for (let call = 0; call < 283; call++)
            console.warn("The model 'claude-sonnet-4-5' is deprecated\nPlease migrate");
          console.warn('another');
          return 'done';
        },
        (text) => void written.push(text),
      );
      expect(result).toBe('done');
      expect(printed).toEqual([["The model 'claude-sonnet-4-5' is deprecated\nPlease migrate"], ['another']]);
      expect(written).toEqual([
        `ctxhost: the warning "The model 'claude-sonnet-4-5' is deprecated" came 282 more times\n`,
      ]);
      console.warn('after');
      expect(printed.at(-1)).toEqual(['after']);
    } finally {
      original.mockRestore();
    }
  });
});
