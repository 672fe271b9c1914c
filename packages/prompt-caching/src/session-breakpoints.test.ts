import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createHost, type Message } from '@ctxhost/core';
import { applyCacheBreakpoints, countCacheBreakpoints } from './apply-cache-breakpoints.js';
import { createSessionBreakpoints } from './session-breakpoints.js';

const message = (id: number, role: Message['role'], marked = false): Message => ({
  id: `m${id}`,
  role,
  parts: [
    {
      id: `m${id}:0`,
      type: 'text',
      text: `message ${id}`,
      ...(marked ? { cacheControl: { type: 'ephemeral' as const } } : {}),
    },
  ],
});

const step = fc.record({
  op: fc.constantFrom('append', 'append', 'append', 'update', 'revert', 'compact'),
  role: fc.constantFrom<Message['role']>('user', 'assistant', 'tool', 'system'),
  marked: fc.boolean(),
});

describe('createSessionBreakpoints', () => {
  it('marks each request of a session exactly as applyCacheBreakpoints does, through appends, updates, reverts and compactions', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 40 }), async (steps) => {
        const session = await createHost().session('s');
        const breakpoints = createSessionBreakpoints('5m');
        let next = 0;
        for (const { op, role, marked } of steps) {
          const current = session.messages();
          if (op === 'update' && current.length > 0)
            await session.update(current[0]!.parts[0]!.id, { text: `changed ${next++}` }, 'test');
          else if (op === 'revert' && current.length > 1)
            await session.revert(current[Math.floor(current.length / 2)]!.id);
          else if (op === 'compact' && current.length > 0)
            await session.applyCompaction([message(next++, 'user', marked), ...current.slice(-2)], {
              engine: 'test',
              reason: 'manual',
              tokensBefore: 0,
              tokensAfter: 0,
              messagesBefore: current.length,
              messagesAfter: 3,
            });
          else await session.append(message(next++, role, marked));
          const view = session.messages();
          const sent = breakpoints.apply(view);
          expect(sent).toEqual(applyCacheBreakpoints(view));
          expect(countCacheBreakpoints(sent)).toBeLessThanOrEqual(4);
        }
      }),
      { seed: 11, numRuns: 60 },
    );
  });

  it('brings its marked list up to date in place for the same view, and copies anything else', async () => {
    const session = await createHost().session('s');
    const breakpoints = createSessionBreakpoints('5m');
    for (let id = 0; id < 6; id++) await session.append(message(id, id % 2 === 0 ? 'user' : 'assistant'));
    const first = breakpoints.apply(session.messages());
    await session.append(message(6, 'user'));
    const second = breakpoints.apply(session.messages());
    expect(second).toBe(first);
    expect(second).toEqual(applyCacheBreakpoints(session.messages()));

    const own = session.messages().slice();
    const marked = breakpoints.apply(own);
    expect(marked).not.toBe(own);
    expect(countCacheBreakpoints(own)).toBe(0);
    expect(marked).toEqual(applyCacheBreakpoints(own));
  });
});
