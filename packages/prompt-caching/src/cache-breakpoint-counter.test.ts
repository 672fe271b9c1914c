import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Message } from '@ctxhost/core';
import { countCacheBreakpoints } from './apply-cache-breakpoints.js';
import { createCacheBreakpointCounter } from './cache-breakpoint-counter.js';

const message = (id: number, marked: boolean): Message => ({
  id: `m${id}`,
  role: id % 2 === 0 ? 'user' : 'assistant',
  parts: [
    {
      id: `m${id}:0`,
      type: 'text',
      text: `message ${id}`,
      ...(marked ? { cacheControl: { type: 'ephemeral' as const } } : {}),
    },
  ],
});

describe('createCacheBreakpointCounter', () => {
  it('agrees with a full count over a session that grows, is compacted and reverted', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ op: fc.constantFrom('append', 'replace', 'revert'), marked: fc.boolean() }), {
          maxLength: 60,
        }),
        (steps) => {
          const counter = createCacheBreakpointCounter();
          let list: Message[] = [];
          let next = 0;
          for (const step of steps) {
            if (step.op === 'append') list = [...list, message(next++, step.marked)];
            else if (step.op === 'replace' && list.length > 0)
              list = [message(next++, step.marked), ...list.slice(Math.ceil(list.length / 2))];
            else list = list.slice(0, Math.floor(list.length / 2));
            expect(counter.count(list)).toBe(countCacheBreakpoints(list));
          }
        },
      ),
      { seed: 7, numRuns: 200 },
    );
  });

  it('is not fooled when the caller changes the list it counted', () => {
    const counter = createCacheBreakpointCounter();
    const list = [message(0, true), message(1, false)];
    expect(counter.count(list)).toBe(1);
    list[1] = message(2, true);
    expect(counter.count(list)).toBe(2);
  });
});
