import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHostTasks, isAbortError } from './host-tasks.js';

afterEach(() => vi.useRealTimers());

describe('createHostTasks', () => {
  it('delays cancellably', async () => {
    vi.useFakeTimers();
    const tasks = createHostTasks();
    const waited = tasks.run('wait', 's1', (signal) => tasks.delay(2000, signal).then(() => 'done'));
    await vi.advanceTimersByTimeAsync(1999);
    expect(tasks.running).toEqual(['wait']);
    await vi.advanceTimersByTimeAsync(1);
    await expect(waited).resolves.toBe('done');
    expect(tasks.running).toEqual([]);
  });

  it('aborts the tasks of a deleted session only', async () => {
    const tasks = createHostTasks();
    const one = tasks.run('retry', 's1', (signal) => tasks.delay(60_000, signal));
    const two = tasks.run('retry', 's2', (signal) => tasks.delay(10, signal));
    tasks.abortSession('s1');
    await expect(one).rejects.toSatisfy(isAbortError);
    await expect(two).resolves.toBeUndefined();
  });

  it('dispose aborts everything, waits, and refuses new work', async () => {
    const tasks = createHostTasks();
    const long = tasks.run('long', undefined, (signal) => tasks.delay(60_000, signal));
    await tasks.dispose();
    await expect(long).rejects.toSatisfy(isAbortError);
    expect(() => tasks.run('late', undefined, async () => undefined)).toThrow(/disposed/);
  });
});
