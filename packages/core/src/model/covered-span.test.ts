import { describe, expect, it } from 'vitest';
import { coveredCount, coveredIdAt, coveredIds, coveredSpanOf, toCoveredSpan } from './covered-span.js';
import type { Message } from './message.js';

const message = (id: string, covers?: Message['meta']): Message => ({
  id,
  role: 'user',
  parts: [{ id: `${id}:0`, type: 'text', text: id }],
  ...(covers === undefined ? {} : { meta: covers }),
});
const history = Array.from({ length: 10 }, (_, index) => message(`m${index}`));

describe('covered spans', () => {
  it('joins plain messages and earlier summaries into one span, taking a summary whole', () => {
    const older = message('s1', { summary: { covers: { first: 'm1', last: 'm5', count: 5 }, engine: 'compressor' } });
    expect(coveredSpanOf([older, history[6]!, history[7]!])).toEqual({ first: 'm1', last: 'm7', count: 7 });
    const legacy = message('s0', { summary: { covers: ['m1', 'm2', 'm3'], engine: 'compressor' } });
    expect(coveredSpanOf([legacy, history[4]!])).toEqual({ first: 'm1', last: 'm4', count: 4 });
    expect(coveredSpanOf([])).toBeUndefined();
  });

  it('keeps its size whatever it covers', () => {
    const huge = message('s', { summary: { covers: { first: 'm0', last: 'm99999', count: 100_000 }, engine: 'c' } });
    const next = coveredSpanOf([huge, ...history.slice(0, 10)])!;
    expect(next.count).toBe(100_010);
    expect(JSON.stringify(next).length).toBeLessThan(60);
  });

  it('finds the n-th covered message and every covered id in the history', () => {
    const span = { first: 'm2', last: 'm4', count: 3 };
    expect(coveredIds(span, history)).toEqual(['m2', 'm3', 'm4']);
    expect(coveredIdAt(span, 1, history)).toBe('m2');
    expect(coveredIdAt(span, 3, history)).toBe('m4');
    expect(coveredIdAt(span, 4, history)).toBeUndefined();
    expect(coveredIdAt(span, 0, history)).toBeUndefined();
    expect(coveredIdAt({ first: 'gone', last: 'm4', count: 3 }, 1, history)).toBeUndefined();
  });

  it('reads a list of ids (what summaries held before spans) as it is', () => {
    expect(coveredIds(['a', 'b'], history)).toEqual(['a', 'b']);
    expect(coveredIdAt(['a', 'b'], 2, history)).toBe('b');
    expect(coveredCount(['a', 'b'])).toBe(2);
    expect(toCoveredSpan(['a', 'b'])).toEqual({ first: 'a', last: 'b', count: 2 });
    expect(toCoveredSpan([])).toBeUndefined();
  });
});
