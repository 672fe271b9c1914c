import { describe, expect, it } from 'vitest';
import { createTextFeaturesCache } from './text-features-cache.js';

describe('createTextFeaturesCache', () => {
  it('keeps at most its limit of characters, dropping the oldest texts first', () => {
    const cache = createTextFeaturesCache<number>(10);
    cache.set('aaaa', 1);
    cache.set('bbbb', 2);
    cache.set('cccc', 3);
    expect(cache.chars).toBe(8);
    expect(cache.get('aaaa')).toBeUndefined();
    expect(cache.get('bbbb')).toBe(2);
    expect(cache.get('cccc')).toBe(3);
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
    expect([4995, 4996, 4997, 4998, 4999].map((index) => cache.get(text(index)))).toEqual([
      undefined,
      4996,
      4997,
      4998,
      4999,
    ]);
    cache.clear();
    cache.set(text(1), 1);
    for (let index = 2; index <= 5; index++) cache.set(text(index), index);
    expect([1, 2, 3, 4, 5].map((index) => cache.get(text(index)))).toEqual([undefined, 2, 3, 4, 5]);
  });
});
