import { describe, expect, it } from 'vitest';
import { truncateMiddle } from './truncate-middle.js';

/** No half of a surrogate pair on its own (String.prototype.isWellFormed is ES2024, past this workspace's lib). */
const hasNoLoneSurrogate = (text: string) =>
  !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);

const marker = (chars: number, lines: number) => `\n[cut ${chars} chars, ${lines} lines]\n`;

describe('truncateMiddle', () => {
  it('leaves short text alone', () => {
    expect(truncateMiddle('short', { keepChars: 10, headRatio: 0.5, marker })).toEqual({ text: 'short', cutChars: 0 });
  });

  it('keeps the head and the tail, counting what was cut', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    const result = truncateMiddle(lines, { keepChars: 100, headRatio: 0.5, marker });
    expect(result.text.startsWith('line 0\n')).toBe(true);
    expect(result.text.endsWith('line 99')).toBe(true);
    expect(result.text).toMatch(/\[cut \d+ chars, \d+ lines\]/);
    const [head = '', tail = ''] = result.text.split(/\n\[cut \d+ chars, \d+ lines\]\n/);
    expect(head.length + result.cutChars + tail.length).toBe(lines.length);
  });

  it('cuts at line boundaries when one is near', () => {
    const text = `${'a'.repeat(30)}\n${'b'.repeat(300)}\n${'c'.repeat(30)}`;
    const result = truncateMiddle(text, { keepChars: 80, headRatio: 0.5, marker });
    expect(result.text).toBe(`${'a'.repeat(30)}\n${marker(301, 1)}${'c'.repeat(30)}`);
  });

  it('cuts mid-line when no boundary is near (one huge line)', () => {
    const text = 'x'.repeat(10_000);
    const result = truncateMiddle(text, { keepChars: 1000, headRatio: 0.3, marker });
    expect(result.cutChars).toBe(9000);
    expect(result.text.startsWith('x'.repeat(300) + '\n[cut')).toBe(true);
    expect(result.text.endsWith(']\n' + 'x'.repeat(700))).toBe(true);
  });

  it('never cuts between the two halves of a surrogate pair (found with hostile inputs)', () => {
    for (const [keepChars, headRatio] of [
      [1001, 0.5],
      [1000, 0.3],
      [999, 0.7],
    ] as const) {
      const result = truncateMiddle('\u{1F600}'.repeat(10_000), { keepChars, headRatio, marker });
      expect(hasNoLoneSurrogate(result.text)).toBe(true);
    }
  });
});
