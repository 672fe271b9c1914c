import { describe, expect, it } from 'vitest';
import { markAppendOnlyView } from './append-only-view.js';
import { markJournaledList, replaceEntry, replacedSince, revisionOf } from './journaled-list.js';

describe('journaled lists', () => {
  it('say which indexes were replaced since a revision', () => {
    const list = markJournaledList(['a', 'b', 'c']);
    const seen = revisionOf(list)!;
    expect(replacedSince(list, seen)).toEqual([]);
    replaceEntry(list, 1, 'B');
    list.push('d');
    replaceEntry(list, 0, 'A');
    replaceEntry(list, 1, 'b');
    expect(list).toEqual(['A', 'b', 'c', 'd']);
    expect(replacedSince(list, seen)).toEqual([1, 0, 1]);
    expect(replacedSince(list, revisionOf(list)!)).toEqual([]);
  });

  it('know nothing of a plain list (replaceEntry still sets it), and read a session view as never replaced', () => {
    const plain = ['a'];
    replaceEntry(plain, 0, 'b');
    expect(plain).toEqual(['b']);
    expect(revisionOf(plain)).toBeUndefined();
    expect(replacedSince(plain, 0)).toBeUndefined();
    const view = markAppendOnlyView(['a']);
    expect(revisionOf(view)).toBe(0);
    expect(replacedSince(view, 0)).toEqual([]);
  });

  it('forget the oldest replacements: a reader that far behind is told it cannot know', () => {
    const list = markJournaledList(['a']);
    const seen = revisionOf(list)!;
    for (let step = 0; step < 600; step++) replaceEntry(list, 0, `a${step}`);
    expect(replacedSince(list, seen)).toBeUndefined();
    const recent = revisionOf(list)! - 10;
    expect(replacedSince(list, recent)).toHaveLength(10);
  });
});
