import { isAppendOnlyView, type Message } from '@ctxhost/core';

/**
 * Counts the parts that carry `cacheControl` in the lists one session sends,
 * request after request, keeping a running count per message of the previous
 * list. When the list is the session's view again (`isAppendOnlyView`, the
 * same list object), only the messages past the length seen last time are
 * looked at. Otherwise consecutive requests still share most of their
 * messages (the same objects, since ctxhost never edits a message in place),
 * so it re-counts from the first message that is not the same object.
 */
export interface CacheBreakpointCounter {
  count(messages: readonly Message[]): number;
}

export function createCacheBreakpointCounter(): CacheBreakpointCounter {
  let previous: readonly Message[] = [];
  /** The list last counted, when it was a session's view (it may have grown since, never changed). */
  let previousView: readonly Message[] | undefined;
  /** `runningCounts[i]`: breakpoints in `previous[0..i]`. */
  const runningCounts: number[] = [];
  return {
    count(messages) {
      const sameView = messages === previousView && runningCounts.length <= messages.length;
      const shared = sameView ? runningCounts.length : sharedPrefixLength(previous, messages);
      runningCounts.length = shared;
      let total = shared === 0 ? 0 : (runningCounts[shared - 1] as number);
      for (let index = shared; index < messages.length; index += 1) {
        total += markedParts(messages[index] as Message);
        runningCounts.push(total);
      }
      // A view is kept as it is (it only grows); any other list is copied, since its owner may change it.
      previousView = isAppendOnlyView(messages) ? messages : undefined;
      previous = previousView ?? messages.slice();
      return total;
    },
  };
}

/** The number of parts of one message that carry `cacheControl`. */
export function markedParts(message: Message): number {
  let count = 0;
  for (const part of message.parts) if (part.cacheControl !== undefined) count += 1;
  return count;
}

function sharedPrefixLength(before: readonly Message[], after: readonly Message[]): number {
  const limit = Math.min(before.length, after.length);
  let index = 0;
  // Object.is: the same message is recognised without reading it (=== reads its map to rule out NaN).
  while (index < limit && Object.is(before[index], after[index])) index += 1;
  return index;
}
