import { describe, expect, it } from 'vitest';
import type { Message } from '../model/message.js';
import { createMemoryStore } from '../stores/memory-store.js';
import type { SessionStore } from '../stores/session-store.js';
import { createCompactionCache } from './compaction-cache.js';
import { createReportOnce } from './report-once.js';

const message = (text: string): Message => ({
  id: text,
  role: 'user',
  parts: [{ id: `${text}:0`, type: 'text', text }],
});
const hashes = ['a'.repeat(32), 'b'.repeat(32), 'c'.repeat(32), 'd'.repeat(32), 'e'.repeat(32)];

describe('createCompactionCache', () => {
  const cache = () =>
    createCompactionCache(
      createMemoryStore(),
      createReportOnce(() => undefined, 'test'),
    );

  it('answers the longest compaction whose covered prefix the prompt holds, and nothing for another prompt', async () => {
    const entries = cache();
    await entries.write(hashes, 2, 's-settings', 1, [message('two')]);
    await entries.write(hashes, 4, 's-settings', 1, [message('four')]);
    expect((await entries.best(hashes, 's-settings'))?.projection).toEqual([message('four')]);
    expect((await entries.best(hashes.slice(0, 3), 's-settings'))?.projection).toEqual([message('two')]);
    const other = [...hashes.slice(0, 3), 'x'.repeat(32), 'y'.repeat(32)];
    expect((await entries.best(other, 's-settings'))?.coveredLength).toBe(2);
    expect(await entries.best(hashes, 's-other-settings')).toBeUndefined();
  });

  it('keeps a recovery’s next step of the same prefix as a later generation, and answers that one', async () => {
    const entries = cache();
    await entries.write(hashes, 4, 's-settings', 1, [message('first step')]);
    expect((await entries.write(hashes, 4, 's-settings', 2, [message('second step')])).projection).toBeUndefined();
    const best = await entries.best(hashes, 's-settings');
    expect(best?.generation).toBe(2);
    expect(best?.projection).toEqual([message('second step')]);
  });

  it('gives a second writer of the same generation the first writer’s projection', async () => {
    const entries = cache();
    await entries.write(hashes, 4, 's-settings', 1, [message('first')]);
    expect((await entries.write(hashes, 4, 's-settings', 1, [message('second')])).projection).toEqual([
      message('first'),
    ]);
  });

  it('after the shared store failed, no request waits for it: a probe no request awaits finds it answering again', async () => {
    // A partitioned store: each call hangs until its own timeout, then fails.
    const memory = createMemoryStore();
    let answering = false;
    let calls = 0;
    const timeouts: (() => void)[] = [];
    const entryCall =
      <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
      (...args: A): Promise<R> => {
        calls++;
        if (answering) return fn(...args);
        return new Promise((_, reject) => timeouts.push(() => reject(new Error('timeout exceeded'))));
      };
    const store: SessionStore = {
      ...memory,
      kind: 'postgres',
      entryHeads: entryCall(memory.entryHeads!),
      getEntry: entryCall(memory.getEntry!),
      putEntry: entryCall(memory.putEntry!),
    };
    let clock = 0;
    const report = createReportOnce(() => undefined, 'test');
    const entries = createCompactionCache(store, report, {
      retry: { firstMs: 5_000, maxMs: 60_000 },
      now: () => clock,
    });
    const timeOut = async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      for (const fail of timeouts.splice(0)) fail();
    };

    const first = entries.write(hashes, 4, 's-settings', 1, [message('local')]);
    await timeOut();
    expect((await first).projection).toBeUndefined();
    const afterFailure = calls;
    // Known down: answered from memory at once, the store not asked.
    expect((await entries.best(hashes, 's-settings'))?.projection).toEqual([message('local')]);
    expect(calls).toBe(afterFailure);
    expect(report.counts.get('store')).toBe(1);

    // Time to ask again: this request starts a probe and does not wait for it (the store still hangs).
    clock = 5_000;
    expect((await entries.best(hashes, 's-settings'))?.projection).toEqual([message('local')]);
    expect(calls).toBe(afterFailure + 1);
    await timeOut();
    // The probe failed: the next is twice as far off (10 s).
    clock = 14_999;
    await entries.best(hashes, 's-settings');
    expect(calls).toBe(afterFailure + 1);

    answering = true;
    await memory.putEntry!({
      key: 'c-shared-entry',
      index: `i-${hashes[3]!.slice(0, 32)}`,
      coveredLength: 5,
      coveredHash: hashes[4]!,
      settings: 's-settings-g1',
      body: JSON.stringify({ projection: [message('shared')] }),
    });
    clock = 15_000;
    await entries.best(hashes, 's-settings');
    await new Promise((resolve) => setTimeout(resolve, 0));
    // The probe found it answering: requests read it again.
    expect((await entries.best(hashes, 's-settings'))?.projection).toEqual([message('shared')]);
    expect(report.counts.get('store')).toBe(1);
  });
});
