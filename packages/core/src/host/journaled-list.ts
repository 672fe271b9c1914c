import { isAppendOnlyView } from './append-only-view.js';

/**
 * Lists their owner changes in place only by appending and by replacing entries through `replaceEntry`,
 * which notes the index. A reader that kept a list's revision (`revisionOf`) learns what was replaced
 * since (`replacedSince`) in the time of the replacements, and what was appended from the length it
 * saw, instead of comparing the whole list with what it kept. A session's view (append-only-view.ts)
 * reads as a journaled list that no one replaces entries of.
 */
interface Journal {
  /** The revision of `replaced[0]`: entries before it were dropped. */
  first: number;
  replaced: number[];
}

const journals = new WeakMap<readonly unknown[], Journal>();

/** Replacements kept per list; a reader further behind compares the list whole. */
const KEPT_REPLACEMENTS = 256;

/** Registers a list its owner will change only by appending and through `replaceEntry`. */
export function markJournaledList<T>(list: T[]): T[] {
  journals.set(list, { first: 0, replaced: [] });
  return list;
}

/** `list[index] = value`, noted in the list's journal when it has one. */
export function replaceEntry<T>(list: T[], index: number, value: T): void {
  list[index] = value;
  const journal = journals.get(list);
  if (journal === undefined) return;
  journal.replaced.push(index);
  if (journal.replaced.length > 2 * KEPT_REPLACEMENTS) {
    const dropped = journal.replaced.length - KEPT_REPLACEMENTS;
    journal.replaced.splice(0, dropped);
    journal.first += dropped;
  }
}

/** The list's revision now (pass it to `replacedSince` later), or undefined when its changes are not known. */
export function revisionOf(list: readonly unknown[]): number | undefined {
  const journal = journals.get(list);
  if (journal !== undefined) return journal.first + journal.replaced.length;
  return isAppendOnlyView(list) ? 0 : undefined;
}

/**
 * The indexes replaced since `revision` (in the order replaced, repeats included; the list may also have
 * grown), or undefined when that is not known: not a journaled list, or a revision the journal no
 * longer reaches back to.
 */
export function replacedSince(list: readonly unknown[], revision: number): readonly number[] | undefined {
  const journal = journals.get(list);
  if (journal === undefined) return isAppendOnlyView(list) ? [] : undefined;
  if (revision < journal.first) return undefined;
  return journal.replaced.slice(revision - journal.first);
}
