import type { Message } from '@ctxhost/core';

/**
 * Counts the parts that carry `cacheControl` in the lists one session sends,
 * request after request. Consecutive requests share most of their messages
 * (the same objects, since ctxhost never edits a message in place), so the
 * counter keeps a running count per message of the previous list and only
 * re-counts from the first message that is not the same object: one pointer
 * comparison per message instead of a look at every part.
 */
export interface CacheBreakpointCounter {
  count(messages: readonly Message[]): number;
}

export function createCacheBreakpointCounter(): CacheBreakpointCounter {
  let previous: readonly Message[] = [];
  /** `runningCounts[i]`: breakpoints in `previous[0..i]`. */
  let runningCounts: number[] = [];
  return {
    count(messages) {
      const shared = sharedPrefixLength(previous, messages);
      runningCounts.length = shared;
      let total = shared === 0 ? 0 : (runningCounts[shared - 1] as number);
      for (let index = shared; index < messages.length; index += 1) {
        total += markedParts(messages[index] as Message);
        runningCounts.push(total);
      }
      previous = messages.slice();
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
  while (index < limit && before[index] === after[index]) index += 1;
  return index;
}
