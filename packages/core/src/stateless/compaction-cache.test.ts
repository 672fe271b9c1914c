import { describe, expect, it } from 'vitest';
import type { Message } from '../model/message.js';
import { createMemoryStore } from '../stores/memory-store.js';
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
});
