import { describe, expect, it } from 'vitest';
import { createPreparedTurns } from './prepared-turns.js';

/** A turn that records its end. */
function turn(name: string) {
  const ended: string[] = [];
  return { name, ended, finish: async () => void ended.push(name) };
}

describe('createPreparedTurns', () => {
  it('hands out the oldest turn waiting under a key, once', () => {
    const prepared = createPreparedTurns<ReturnType<typeof turn>>(4);
    const [a, b, c] = [turn('a'), turn('b'), turn('c')];
    prepared.add('k', a);
    prepared.add('k', b);
    prepared.add('other', c);
    expect(prepared.take('k')).toBe(a);
    expect(prepared.take('k')).toBe(b);
    expect(prepared.take('k')).toBeUndefined();
    expect(prepared.size).toBe(1);
  });

  it('past its limit finishes and forgets the oldest turn, whatever its key', async () => {
    const prepared = createPreparedTurns<ReturnType<typeof turn>>(2);
    const [a, b, c] = [turn('a'), turn('b'), turn('c')];
    prepared.add('x', a);
    prepared.add('y', b);
    prepared.add('x', c);
    await Promise.resolve();
    expect(a.ended).toEqual(['a']);
    expect(b.ended).toEqual([]);
    expect(prepared.size).toBe(2);
    expect(prepared.take('x')).toBe(c);
    expect(prepared.take('y')).toBe(b);
  });
});
