import { describe, expect, it } from 'vitest';
import { toJsonValue } from './to-json-value.js';

describe('toJsonValue', () => {
  it('returns a plain JSON value itself, without copying it', () => {
    const input = { path: 'src/a.ts', lines: [1, 2, { from: 3, to: null }], force: true };
    expect(toJsonValue(input)).toBe(input);
  });

  it('gives what JSON makes of anything else', () => {
    const when = new Date('2026-01-02T03:04:05.000Z');
    expect(toJsonValue({ a: undefined, b: [undefined], when, n: Number.NaN })).toEqual({
      b: [null],
      when: '2026-01-02T03:04:05.000Z',
      n: null,
    });
    expect(toJsonValue(undefined)).toBeNull();
    expect(toJsonValue({ toJSON: () => 'custom' })).toBe('custom');
  });
});
