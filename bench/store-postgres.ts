/**
 * The PostgreSQL store beside the file store, with 1 and with 4 worker
 * processes: appends per second (each worker appending ~1 KB messages to its
 * own session, fsynced/committed one by one) and the turn overhead (the host
 * with every default hook: append the user message, the request waterfall,
 * append the reply with usage, idle; with PostgreSQL each turn runs inside
 * `withSessionLock`, as a multi-worker gateway does). The model call is excluded.
 * Needs a PostgreSQL server: DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test
 * (a schema of its own, dropped afterwards).
 * Run alone: npx tsx --conditions=@ctxhost/source bench/store-postgres.ts
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createFileStore, type Message, type SessionStore } from '@ctxhost/core';
import { createPostgresStore, type PostgresStore } from '@ctxhost/store-postgres';
import { createDefaultHost } from 'ctxhost';
import type { BenchSize } from './bench.js';

export interface StorePostgresRow {
  store: 'file' | 'postgres';
  workers: number;
  /** All workers together: appends per second. */
  appendsPerSecond: number;
  /** Median ms the host adds to one turn, the median over workers. */
  turnOverheadMs: number;
}

interface WorkerResult {
  appendsPerSecond: number;
  turnOverheadMs: number;
}

const FULL = { appends: 200, turns: 30 };
/** Smallest: a few appends and turns, the worker in this process (one process start less per store). */
const SMALLEST = { appends: 20, turns: 5 };
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SELF = fileURLToPath(import.meta.url);
const databaseUrl = () => process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Smallest: one worker per store, in this process. */
export async function runStorePostgres(size: BenchSize = 'full'): Promise<StorePostgresRow[]> {
  const workerCounts = size === 'smallest' ? [1] : [1, 4];
  const directory = await mkdtemp(join(tmpdir(), 'ctxhost-bench-store-'));
  const schema = `ctxhost_bench_${randomBytes(4).toString('hex')}`;
  const setup = createPostgresStore({ url: databaseUrl(), schema });
  await setup.migrate();
  const rows: StorePostgresRow[] = [];
  try {
    for (const store of ['file', 'postgres'] as const) {
      for (const workers of workerCounts) {
        const target = store === 'file' ? join(directory, `run-${workers}`) : schema;
        const results = await Promise.all(
          Array.from({ length: workers }, (_, index) =>
            size === 'smallest'
              ? workerMain(store, target, `w${workers}-${index}`, SMALLEST)
              : runWorker(store, target, `w${workers}-${index}`),
          ),
        );
        rows.push({
          store,
          workers,
          appendsPerSecond: Math.round(results.reduce((sum, result) => sum + result.appendsPerSecond, 0)),
          turnOverheadMs: round(median(results.map((result) => result.turnOverheadMs))),
        });
      }
    }
  } finally {
    await setup.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await setup.close();
    await rm(directory, { recursive: true, force: true });
  }
  return rows;
}

function runWorker(store: 'file' | 'postgres', target: string, name: string): Promise<WorkerResult> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=@ctxhost/source', SELF, '--worker', store, target, name],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(stdout) as WorkerResult)
        : reject(new Error(`bench worker ${name} exited with ${code}`)),
    );
  });
}

async function workerMain(
  kind: 'file' | 'postgres',
  target: string,
  name: string,
  counts: { appends: number; turns: number } = FULL,
): Promise<WorkerResult> {
  const open = (): SessionStore =>
    kind === 'file'
      ? createFileStore({ directory: target })
      : createPostgresStore({ url: databaseUrl(), schema: target, maxConnections: 4 });
  const appendStore = open();
  const body = 'x'.repeat(1_000);
  const started = performance.now();
  for (let index = 0; index < counts.appends; index += 1)
    await appendStore.append(`${name}-appends`, {
      type: 'message.appended',
      message: message('tool', `${index} ${body}`),
    });
  const appendsPerSecond = counts.appends / ((performance.now() - started) / 1_000);
  await appendStore.close();
  return { appendsPerSecond, turnOverheadMs: await turnOverhead(open(), `${name}-turns`, counts.turns) };
}

async function turnOverhead(store: SessionStore, sessionId: string, turns: number): Promise<number> {
  const host = await createDefaultHost({
    config: { store: { kind: store.kind === 'file' ? 'file' : 'postgres' }, model: { contextLength: 200_000 } },
    store,
  });
  const session = await host.session(sessionId);
  const locked = <T>(fn: () => Promise<T>) =>
    store.kind === 'postgres' ? (store as PostgresStore).withSessionLock(sessionId, fn) : fn();
  const timings: number[] = [];
  for (let turn = 0; turn < turns; turn += 1) {
    const started = performance.now();
    await locked(async () => {
      await session.append(message('user', `turn ${turn}: next step please`));
      const request = await host.hooks.beforeRequest.promise(
        { sessionId, model: 'claude-sonnet-4-6', messages: session.messages(), maxTokens: 1000 },
        { sessionId, contextWindow: 200_000 },
      );
      await session.append(message('assistant', `done with turn ${turn}`), {
        usage: {
          inputTokens: 1000 + turn,
          outputTokens: 10,
          cacheCreationInputTokens: 0,
          cacheReadInputTokens: request.messages.length,
        },
      });
      await host.emit('session.idle', { sessionId });
    });
    timings.push(performance.now() - started);
  }
  await host.dispose();
  return median(timings);
}

let ids = 0;
function message(role: Message['role'], text: string): Message {
  const id = `m-${process.pid}-${++ids}`;
  return { id, role, parts: [{ id: `${id}:0`, type: 'text', text }] };
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [flag, kind, target, name] = process.argv.slice(2);
  if (flag === '--worker' && (kind === 'file' || kind === 'postgres') && target !== undefined && name !== undefined) {
    process.stdout.write(JSON.stringify(await workerMain(kind, target, name)));
  } else {
    console.table(await runStorePostgres());
  }
}
