import { describe, expect, it } from 'vitest';
import { createTextFeaturesCache } from './text-features-cache.js';

describe('createTextFeaturesCache', () => {
  it('keeps at most its limit of characters, dropping the oldest texts first', () => {
    const cache = createTextFeaturesCache<number>(10);
    cache.set('aaaa', 1);
    cache.set('bbbb', 2);
    cache.set('cccc', 3);
    expect(cache.chars).toBe(8);
    expect(cache.get('bbbb')).toBe(2);
    expect(cache.get('cccc')).toBe(3);
    expect(cache.get('aaaa')).toBeUndefined(); // looked up last: a miss this size starts a skip
  });

  it('does not hold a text longer than its limit, nor count a text twice', () => {
    const cache = createTextFeaturesCache<number>(10);
    cache.set('x'.repeat(11), 1);
    cache.set('yyy', 2);
    cache.set('yyy', 3);
    expect(cache.chars).toBe(3);
    expect(cache.get('yyy')).toBe(2);
    cache.clear();
    expect(cache.chars).toBe(0);
  });

  it('keeps dropping the oldest first through many evictions, and after a clear', () => {
    const cache = createTextFeaturesCache<number>(40);
    const text = (index: number): string => String(index).padStart(10, '.');
    for (let index = 0; index < 5000; index++) cache.set(text(index), index);
    expect(cache.chars).toBe(40);
    expect([4996, 4997, 4998, 4999, 4995].map((index) => cache.get(text(index)))).toEqual([
      4996,
      4997,
      4998,
      4999,
      undefined,
    ]);
    cache.clear();
    cache.set(text(1), 1);
    for (let index = 2; index <= 5; index++) cache.set(text(index), index);
    expect([2, 3, 4, 5, 1].map((index) => cache.get(text(index)))).toEqual([2, 3, 4, 5, undefined]);
  });

  it('skips lookups for its limit in characters once a quarter of it has missed in a row, then looks up again', () => {
    const cache = createTextFeaturesCache<number>(40);
    cache.set('kept', 1);
    expect(cache.get('aaaaa')).toBeUndefined();
    expect(cache.skipping).toBe(false);
    expect(cache.get('bbbbb')).toBeUndefined(); // 10 characters missed: a quarter of 40
    expect(cache.skipping).toBe(true);
    const skipped = Array.from({ length: 10 }, () => cache.get('kept')); // 40 characters not looked up
    expect(skipped).toEqual(Array.from({ length: 10 }, () => undefined));
    expect(cache.skipping).toBe(false);
    expect(cache.get('kept')).toBe(1);
  });

  it('skips twice as long when the misses go on after a skip, and its limit again after a hit', () => {
    const cache = createTextFeaturesCache<number>(40);
    cache.set('kept', 1);
    /** How many lookups of 4 characters a skip started now takes to end. */
    const skipLength = (): number => {
      for (let lookups = 1; ; lookups++) {
        cache.get('miss');
        if (!cache.skipping) return lookups;
      }
    };
    const startSkip = (): void => {
      while (!cache.skipping) cache.get('gone');
    };
    startSkip();
    expect(skipLength()).toBe(10); // 40 characters
    startSkip();
    expect(skipLength()).toBe(20); // 80: no hit since the last skip
    startSkip();
    expect(skipLength()).toBe(40);
    expect(cache.get('kept')).toBe(1);
    startSkip();
    expect(skipLength()).toBe(10);
  });

  it('ends a skip when one of the lookups it still makes finds a text', () => {
    const cache = createTextFeaturesCache<number>(4000);
    cache.set('kept', 1);
    cache.get('x'.repeat(1000));
    expect(cache.skipping).toBe(true);
    const answers = Array.from({ length: 16 }, () => cache.get('kept'));
    expect(answers.slice(0, 15)).toEqual(Array.from({ length: 15 }, () => undefined));
    expect(answers[15]).toBe(1);
    expect(cache.skipping).toBe(false);
    cache.get('x'.repeat(1000));
    cache.clear();
    expect(cache.skipping).toBe(false);
  });
});
