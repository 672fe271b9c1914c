import { isAppendOnlyView, markJournaledList, replaceEntry, type Message } from '@ctxhost/core';
import { applyCacheBreakpoints, markBreakpoints } from './apply-cache-breakpoints.js';
import { createCacheBreakpointCounter } from './cache-breakpoint-counter.js';
import { createCacheMarker, type CacheTtl } from './cache-marker.js';

/** `system_and_3` for the requests of one session, in time proportional to what changed since its last request. */
export interface SessionBreakpoints {
  apply(messages: readonly Message[]): Message[];
}

/**
 * `applyCacheBreakpoints` for one session's requests without a copy of the
 * list per request. When the list is the session's view (`isAppendOnlyView`)
 * and the same as last time, the marked list returned last time is brought up
 * to date in place: the messages it marked are put back as they are, the
 * appended ones are pushed, and the new targets are marked. So a request's
 * marked list stays as sent until the session's next request; anything else
 * (a compacted list, a caller's own array) gets a fresh marked copy. The
 * marked list is journaled (`markJournaledList`): a reader of consecutive
 * requests (the prompt renderer) looks only at the places put back or marked.
 */
export function createSessionBreakpoints(ttl: CacheTtl): SessionBreakpoints {
  const marker = createCacheMarker(ttl);
  const counter = createCacheBreakpointCounter();
  let source: readonly Message[] | undefined;
  let seen = 0;
  let marked: Message[] = [];
  let written: number[] = [];
  return {
    apply(messages) {
      const existing = counter.count(messages);
      if (!isAppendOnlyView(messages)) {
        source = undefined;
        return applyCacheBreakpoints(messages, { ttl, counter: { count: () => existing } });
      }
      if (messages === source && messages.length >= seen) {
        for (const index of written) replaceEntry(marked, index, messages[index] as Message);
        for (let index = seen; index < messages.length; index += 1) marked.push(messages[index] as Message);
      } else {
        marked = markJournaledList([...messages]);
        source = messages;
      }
      seen = messages.length;
      written = markBreakpoints(messages, marked, marker, existing);
      return marked;
    },
  };
}
