import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as FsPromises from 'node:fs/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CORE_ERROR_CODES, CtxhostError } from '../errors.js';
import { createFileStore } from './file-store.js';
import { sessionFileStem } from './session-file-name.js';

// Every unlink of a lock file takes a seeded random 0–40 ms, so the steps of
// several openers taking over one dead lock interleave in every order: the
// window a check-then-unlink takeover leaves open is held wide.
const delays = fc.sample(fc.integer({ min: 0, max: 40 }), { seed: 25, numRuns: 10_000 });
let next = 0;
vi.mock('node:fs/promises', async (importOriginal) => {
  const original = await importOriginal<typeof FsPromises>();
  const unlink: typeof original.unlink = async (path) => {
    if (String(path).endsWith('.lock'))
      await new Promise((resolve) => setTimeout(resolve, delays[next++ % delays.length]));
    return original.unlink(path);
  };
  return { ...original, unlink, default: { ...original, unlink } };
});

let workDirectory: string;
beforeAll(async () => {
  workDirectory = await mkdtemp(join(tmpdir(), 'ctxhost-lock-race-'));
});
afterAll(async () => {
  await rm(workDirectory, { recursive: true, force: true });
});

describe('taking over a dead session lock', () => {
  it('lets exactly one of eight openers in, round after round, however their steps interleave', async () => {
    const doubleTakeovers: number[] = [];
    for (let round = 0; round < 30; round += 1) {
      const directory = join(workDirectory, `round-${round}`);
      await createFileStore({ directory }).list();
      await writeFile(
        join(directory, `${sessionFileStem('raced')}.jsonl.lock`),
        JSON.stringify({ pid: 2 ** 22 + 4321, hostname: hostname(), token: '0000dead-0000-0000-0000-000000000000' }),
      );
      const stores = Array.from({ length: 8 }, () => createFileStore({ directory }));
      const results = await Promise.allSettled(stores.map((store) => store.read('raced')));
      if (results.filter((result) => result.status === 'fulfilled').length !== 1) doubleTakeovers.push(round);
      for (const result of results)
        if (result.status === 'rejected')
          expect(CtxhostError.hasCode(result.reason, CORE_ERROR_CODES.storeInUse)).toBe(true);
      await Promise.all(stores.map((store) => store.close()));
    }
    expect(doubleTakeovers).toStrictEqual([]);
  });
});
