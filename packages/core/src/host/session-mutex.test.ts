import { describe, expect, it } from 'vitest';
import { runOutsideLocks } from './lock-context.js';
import { createSessionMutex } from './session-mutex.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('createSessionMutex', () => {
  it('serializes sections', async () => {
    const mutex = createSessionMutex();
    const trace: string[] = [];
    const section = (name: string) =>
      mutex.run(async () => {
        trace.push(`${name}:in`);
        await tick();
        trace.push(`${name}:out`);
      });
    await Promise.all([section('a'), section('b'), section('c')]);
    expect(trace).toEqual(['a:in', 'a:out', 'b:in', 'b:out', 'c:in', 'c:out']);
  });

  it('is re-entrant within one async context', async () => {
    const mutex = createSessionMutex();
    const result = await mutex.run(() => mutex.run(async () => (mutex.held ? 'nested' : 'not held')));
    expect(result).toBe('nested');
  });

  it('lets two mutexes (two sessions) run in parallel', async () => {
    const [one, two] = [createSessionMutex(), createSessionMutex()];
    const trace: string[] = [];
    await Promise.all([
      one.run(async () => {
        trace.push('one:in');
        await tick();
        trace.push('one:out');
      }),
      two.run(async () => {
        trace.push('two:in');
        await tick();
        trace.push('two:out');
      }),
    ]);
    expect(trace.slice(0, 2).sort()).toEqual(['one:in', 'two:in']);
  });

  it('makes background work queue instead of inheriting the lock', async () => {
    const mutex = createSessionMutex();
    const trace: string[] = [];
    let background: Promise<void> | undefined;
    await mutex.run(async () => {
      background = runOutsideLocks(() =>
        mutex.run(async () => {
          trace.push('background');
        }),
      );
      await tick();
      trace.push('holder done');
    });
    await background;
    expect(trace).toEqual(['holder done', 'background']);
  });

  it('releases the lock when a section throws', async () => {
    const mutex = createSessionMutex();
    await expect(
      mutex.run(async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(mutex.run(async () => 'next')).resolves.toBe('next');
  });
});
