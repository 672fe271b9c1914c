import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORE_ERROR_CODES } from '../errors.js';
import { createFileStore } from './file-store.js';
import type { StoredEvent } from './session-store.js';
import { testSize } from '../../../../test/support/test-size.js';

const fileStoreSource = fileURLToPath(new URL('./file-store.ts', import.meta.url));
const SESSION = 'crash';

/**
 * The child process, bundled once (a plain `node` start per round keeps 20
 * SIGKILL rounds cheap). `append <dir> <round> <seed>`: appends forever in
 * bursts of up to four concurrent appends of seeded sizes, printing
 * `seq messageId` as each is acknowledged. `contend <dir> <attempts>`: tries to
 * append to a session another process holds and prints what it got as JSON.
 */
const childSource = `
import { createFileStore } from ${JSON.stringify(fileStoreSource)};
const [mode, directory, a, b] = process.argv.slice(2);
const store = createFileStore({ directory });
const message = (id, size) => ({ id, role: 'user', parts: [{ id: id + ':0', type: 'text', text: id + ' ' + 'x'.repeat(size) }] });
if (mode === 'append') {
  let state = Number(b) >>> 0;
  const random = () => { state = (state + 0x6d2b79f5) >>> 0; let t = state; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
  const sizes = [10, 300, 4 * 1024, 64 * 1024];
  let next = 0;
  for (;;) {
    const burst = 1 + Math.floor(random() * 4);
    await Promise.all(Array.from({ length: burst }, async () => {
      const id = 'r' + a + '-m' + next++;
      const stored = await store.append(${JSON.stringify(SESSION)}, { type: 'message.appended', message: message(id, sizes[Math.floor(random() * sizes.length)]) });
      process.stdout.write(stored.seq + ' ' + id + '\\n');
    }));
  }
} else {
  const errors = [];
  let acknowledged = 0;
  for (let attempt = 0; attempt < Number(a); attempt++) {
    try {
      await store.append(${JSON.stringify(SESSION)}, { type: 'message.appended', message: message('intruder-' + attempt, 100) });
      acknowledged++;
    } catch (error) {
      errors.push({ code: error.code, message: error.message });
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  process.stdout.write(JSON.stringify({ acknowledged, errors }) + '\\n');
}
`;

let workDirectory: string;
let childPath: string;
beforeAll(async () => {
  workDirectory = await mkdtemp(join(tmpdir(), 'ctxhost-kill-rounds-'));
  const entry = join(workDirectory, 'child.mts');
  childPath = join(workDirectory, 'child.mjs');
  await writeFile(entry, childSource);
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: childPath,
    conditions: ['@ctxhost/source'],
    logLevel: 'silent',
  });
});
afterAll(async () => {
  await rm(workDirectory, { recursive: true, force: true });
});

interface Acknowledged {
  seq: number;
  messageId: string;
}

/** Runs one append child until it has acknowledged `killAfter` appends, then SIGKILLs it `killDelayMs` later. */
async function appendUntilKilled(
  directory: string,
  round: number,
  seed: number,
  killAfter: number,
  killDelayMs: number,
): Promise<Acknowledged[]> {
  const child = spawn(process.execPath, [childPath, 'append', directory, String(round), String(seed)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, signal) => resolve(signal)),
  );
  const acknowledged: Acknowledged[] = [];
  for await (const line of createInterface({ input: child.stdout })) {
    const [seq, messageId] = line.split(' ');
    acknowledged.push({ seq: Number(seq), messageId: messageId ?? '' });
    if (acknowledged.length === killAfter) setTimeout(() => child.kill('SIGKILL'), killDelayMs);
  }
  const signal = await exited;
  if (signal !== 'SIGKILL')
    throw new Error(
      `round ${round}: the child exited by itself (${String(signal)}) after ${acknowledged.length} acknowledgements: ${errors}`,
    );
  return acknowledged;
}

async function readSession(directory: string): Promise<StoredEvent[]> {
  const store = createFileStore({ directory });
  try {
    return await store.read(SESSION);
  } finally {
    await store.close();
  }
}

const messageIdOf = (event: StoredEvent | undefined) =>
  event?.type === 'message.appended' ? event.message.id : undefined;

describe('file store: SIGKILL at random points, round after round, on one session', () => {
  it(
    'reopens after every kill with every acknowledged event, in order, and appends on top',
    { timeout: 120_000 },
    async () => {
      const directory = join(workDirectory, 'kill-rounds');
      // Seeded, so a failing round can be replayed: when to kill, and the child's own seed for its append sizes.
      const roundPlan = fc.record({
        killAfter: fc.integer({ min: 1, max: 12 }),
        killDelayMs: fc.integer({ min: 0, max: 11 }),
        childSeed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      });
      const rounds = fc.sample(roundPlan, { seed: 20_261_122, numRuns: testSize(20, 6) });
      const everAcknowledged: Acknowledged[] = [];
      for (const [index, { killAfter, killDelayMs, childSeed }] of rounds.entries()) {
        const acknowledged = await appendUntilKilled(directory, index, childSeed, killAfter, killDelayMs);
        everAcknowledged.push(...acknowledged);
        const events = await readSession(directory);
        const context = `round ${index} (kill after ${killAfter} acks + ${killDelayMs} ms): ${acknowledged.length} acknowledged this round, ${events.length} stored`;
        expect(
          events.map((event) => event.seq),
          context,
        ).toStrictEqual(events.map((_, position) => position + 1));
        for (const { seq, messageId } of everAcknowledged)
          expect(messageIdOf(events[seq - 1]), `${context}, seq ${seq}`).toBe(messageId);
      }
      expect(everAcknowledged.length).toBeGreaterThan(20);
    },
  );
});

describe('file store: two processes on one session', () => {
  it(
    'refuses the second process with CTXHOST_STORE_IN_USE naming the owner, and the log holds only the owner’s events',
    { timeout: 60_000 },
    async () => {
      const directory = join(workDirectory, 'contended');
      const owner = createFileStore({ directory });
      await owner.append(SESSION, {
        type: 'message.appended',
        message: { id: 'owner-0', role: 'user', parts: [{ id: 'owner-0:0', type: 'text', text: 'first' }] },
      });
      const child = spawn(process.execPath, [childPath, 'contend', directory, '20'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      let errors = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      let appended = 1;
      let childDone = false;
      void exited.then(() => (childDone = true));
      while (!childDone || appended < 30) {
        await owner.append(SESSION, {
          type: 'message.appended',
          message: {
            id: `owner-${appended}`,
            role: 'user',
            parts: [{ id: `owner-${appended}:0`, type: 'text', text: `append ${appended} `.repeat(50) }],
          },
        });
        appended++;
      }
      expect(await exited, errors).toBe(0);
      const contender = JSON.parse(output) as { acknowledged: number; errors: { code: string; message: string }[] };
      expect(contender.acknowledged).toBe(0);
      expect(contender.errors).toHaveLength(20);
      for (const error of contender.errors) {
        expect(error.code).toBe(CORE_ERROR_CODES.storeInUse);
        expect(error.message).toContain(`session "${SESSION}" is open for writing by process ${process.pid}`);
      }
      await owner.close();
      const events = await readSession(directory);
      expect(events.map(messageIdOf)).toEqual(Array.from({ length: appended }, (_, index) => `owner-${index}`));
      const raw = await readFile(join(directory, `${SESSION}.jsonl`), 'utf8');
      expect(raw).not.toContain('intruder');
    },
  );
});
