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
});
