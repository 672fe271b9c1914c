/**
 * The lists a session hands out from `messages()` are views the session only
 * ever appends to (any other change gives a new list). Taps that keep state
 * between requests check a list here: for a view they have seen before, what
 * changed is exactly what lies past the length they saw, so they look only at
 * that instead of comparing the whole list.
 */
const views = new WeakSet<readonly unknown[]>();

/** Registers a list as append-only (the session does, for each list it creates). */
export function markAppendOnlyView<T>(list: T[]): T[] {
  views.add(list);
  return list;
}

/** True when `list` is a session's view: its first `n` items stay as they were for any `n` seen. */
export function isAppendOnlyView(list: readonly unknown[]): boolean {
  return views.has(list);
}
