import { describe, expect, it } from 'vitest';
import { compactionSpanOf, newestSummary, viewOf, type OpencodeEntry } from './opencode-compaction-span.js';
import { assistant, marker, user } from './opencode-entries.test-helper.js';

const ids = (entries: readonly OpencodeEntry[]) => entries.map(({ info }) => info.id);

describe("opencode's compaction spans", () => {
  const first = [user('u1'), assistant('a1', 'u1'), user('u2'), assistant('a2', 'u2')];
  const compacted = [
    ...first,
    marker('c1', 'u2'),
    assistant('s1', 'c1', { summary: true, finish: 'stop' }),
    user('u3'),
    assistant('a3', 'u3'),
  ];

  it('reads the view opencode sends: marker, summary, the tail it kept, then what came after', () => {
    expect(ids(viewOf(compacted))).toEqual(['c1', 's1', 'u2', 'a2', 'u3', 'a3']);
    expect(ids(viewOf(first))).toEqual(ids(first));
  });

  it('a summary that failed or is still being written is not a compaction', () => {
    const unfinished = [...first, marker('c1'), assistant('s1', 'c1', { summary: true })];
    expect(newestSummary(unfinished)).toBeUndefined();
    expect(ids(viewOf(unfinished))).toEqual(ids(unfinished));
  });

  it('the span a summary replaced: the view before its marker, and the tail it kept', () => {
    const span = compactionSpanOf(compacted, 's1');
    expect(ids(span!.before)).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(ids(span!.tail)).toEqual(['u2', 'a2']);
    expect(span!.auto).toBe(false);
  });

  it('a second compaction replaces the first summary and what followed it', () => {
    const again = [...compacted, marker('c2'), assistant('s2', 'c2', { summary: true, finish: 'stop' })];
    const span = compactionSpanOf(again, 's2');
    expect(ids(span!.before)).toEqual(['c1', 's1', 'u2', 'a2', 'u3', 'a3']);
    expect(span!.tail).toEqual([]);
    expect(compactionSpanOf(again, 'missing')).toBeUndefined();
  });
});
