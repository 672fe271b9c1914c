import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore, sessionLockKey, type PostgresStore } from '@ctxhost/store-postgres';
import {
  dropSchema,
  testDatabaseUrl,
  uniqueSchemaName,
} from '../packages/store-postgres/src/test-database.test-helper.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WORKER = fileURLToPath(new URL('./store-postgres-worker.ts', import.meta.url));
const ITERATIONS = 40;

const schema = uniqueSchemaName('workers');
let store: PostgresStore;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  store = createPostgresStore({ url: testDatabaseUrl(), schema });
  await store.migrate();
  await store.pool.query(
    `CREATE TABLE "${schema}".lock_intervals (id serial PRIMARY KEY, worker text NOT NULL, iteration integer NOT NULL, entered_at timestamptz NOT NULL, exited_at timestamptz)`,
  );
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await store.close();
  await dropSchema(schema);
});

// Child processes start tsx: give a loaded 2-core machine time (nothing here asserts timing).
describe('several worker processes on one PostgreSQL store', { timeout: 120_000 }, () => {
  it('two processes hammering one session: nothing lost or duplicated, locked sections never overlap', async () => {
    const results = await Promise.all(
      ['alpha', 'beta'].map((worker) =>
        runToEnd(startWorker('hammer', 'hammered', { WORKER_NAME: worker, ITERATIONS: String(ITERATIONS) })),
      ),
    );
    expect(results.map((result) => result.stdout.trim())).toStrictEqual(['done', 'done']);

    const events = await store.read('hammered');
    const total = 2 * 2 * ITERATIONS;
    expect(events.map((event) => event.seq)).toStrictEqual(Array.from({ length: total }, (_, index) => index + 1));
    const expectedIds = ['alpha', 'beta'].flatMap((worker) =>
      Array.from({ length: ITERATIONS }, (_, index) => [`${worker}-locked-${index}`, `${worker}-free-${index}`]).flat(),
    );
    expect(events.map((event) => event.eventId).sort()).toStrictEqual(expectedIds.sort());

    const intervals = await store.pool.query<{ worker: string; entered_at: Date; exited_at: Date | null }>(
      `SELECT worker, entered_at, exited_at FROM "${schema}".lock_intervals ORDER BY entered_at, id`,
    );
    expect(intervals.rows).toHaveLength(2 * ITERATIONS);
    expect(new Set(intervals.rows.map((row) => row.worker))).toStrictEqual(new Set(['alpha', 'beta']));
    const overlaps = intervals.rows
      .slice(1)
      .filter((row, index) => row.entered_at.getTime() < (intervals.rows[index]!.exited_at?.getTime() ?? Infinity));
    expect(overlaps).toStrictEqual([]);
  });

  it('a worker killed with SIGKILL while holding a session lock releases it, and another takes over', async () => {
    const holder = startWorker('hold', 'orphaned', { WORKER_NAME: 'holder' });
    await waitForLine(holder, 'locked');
    let acquired = false;
    const takeover = store.withSessionLock('orphaned', async () => {
      acquired = true;
      return store.append('orphaned', {
        type: 'message.appended',
        message: { id: 'after', role: 'user', parts: [{ id: 'after-p', type: 'text', text: 'taken over' }] },
      });
    });
    await waitUntil(async () => (await lockHolders('orphaned')).some((row) => !row.granted));
    const holders = await lockHolders('orphaned');
    expect(holders.filter((row) => row.granted)).toHaveLength(1);
    expect(acquired).toBe(false);

    holder.kill('SIGKILL');
    const appended = await takeover;
    expect(acquired).toBe(true);
    expect((await store.read('orphaned')).map((event) => event.eventId)).toStrictEqual(['held', appended.eventId]);
    expect(await lockHolders('orphaned')).toStrictEqual([]);
  });
});

function startWorker(mode: string, sessionId: string, environment: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@ctxhost/source', WORKER, mode], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      DATABASE_URL: testDatabaseUrl(),
      STORE_SCHEMA: schema,
      SESSION_ID: sessionId,
      ...environment,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

function runToEnd(child: ChildProcess): Promise<{ stdout: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) =>
      code === 0 ? resolve({ stdout }) : reject(new Error(`worker exited with ${code}: ${stderr}`)),
    );
  });
}

function waitForLine(child: ChildProcess, line: string): Promise<void> {
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.split('\n').includes(line)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`worker exited with ${code} before "${line}": ${stderr}`)));
  });
}

/** The advisory lock rows of a session's lock key (granted, or waited for). */
async function lockHolders(sessionId: string): Promise<{ pid: number; granted: boolean }[]> {
  const result = await store.pool.query<{ pid: number; granted: boolean }>(
    `SELECT pid, granted FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1
       AND ((classid::bigint << 32) | objid::bigint) = hashtextextended($1, 0) ORDER BY granted DESC`,
    [sessionLockKey(schema, sessionId)],
  );
  return result.rows;
}

async function waitUntil(condition: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 1_000; attempt += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('condition not met in 20 s');
}
