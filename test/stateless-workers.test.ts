import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSimulator, type Simulator } from '@ctxhost/simulator';
import { createPostgresStore } from '@ctxhost/store-postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { startTcpProxy } from '../packages/store-postgres/src/tcp-proxy.test-helper.js';
import {
  dropSchema,
  testDatabaseUrl,
  uniqueSchemaName,
} from '../packages/store-postgres/src/test-database.test-helper.js';
import { markersIn } from './support/stateless-conversations.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WORKER = fileURLToPath(new URL('./stateless-worker.ts', import.meta.url));
const WORKERS = 2;
const CONVERSATIONS = 12;
const WINDOW = 6000;

interface WorkerReport {
  worker: number;
  errors: string[];
  overhead: number[];
  warnings: string[];
}

const children = new Set<ChildProcess>();
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  for (const cleanup of cleanups) await cleanup();
});

function runWorker(worker: number, sim: Simulator, environment: Record<string, string>): Promise<WorkerReport> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@ctxhost/source', WORKER], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      SIM_URL: sim.url,
      WORKER: String(worker),
      WORKERS: String(WORKERS),
      CONVERSATIONS: String(CONVERSATIONS),
      TURNS: '6',
      WINDOW: String(WINDOW),
      COPIES: '2',
      ...environment,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => {
      children.delete(child);
      if (code !== 0) reject(new Error(`worker ${worker} exited with ${code}: ${stderr}`));
      else resolve(JSON.parse(stdout.trim().split('\n').at(-1)!) as WorkerReport);
    }),
  );
}

/** Requests the model answered, grouped by the prompt's last user turn (the same turn of the same conversation on any worker). */
function answeredByPrompt(sim: Simulator): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const request of sim.requests) {
    if (request.path !== '/v1/messages' || request.status !== 200) continue;
    const body = request.body as { messages: { role: string; content: unknown }[] };
    const last = JSON.stringify(body.messages.filter((message) => message.role === 'user').at(-1));
    groups.set(last, [...(groups.get(last) ?? []), JSON.stringify(body)]);
  }
  return groups;
}

function check(sim: Simulator, reports: WorkerReport[]): { identical: number; groups: number } {
  expect(reports.flatMap((report) => report.errors)).toEqual([]);
  for (const request of sim.requests) expect(markersIn(JSON.stringify(request.body)).size).toBeLessThanOrEqual(1);
  const groups = [...answeredByPrompt(sim).values()].filter((bodies) => bodies.length > 1);
  return { identical: groups.filter((bodies) => new Set(bodies).size === 1).length, groups: groups.length };
}

// Child processes start tsx: give a loaded 2-core machine time (nothing here asserts timing).
describe('the stateless path across worker processes (@ctxhost/ai-sdk)', { timeout: 240_000 }, () => {
  it('on one file store: no caller error, no marker in another conversation, the same projection for the same prompt', async () => {
    const sim = await startSimulator({ contextLimit: WINDOW });
    const directory = await mkdtemp(join(tmpdir(), 'ctxhost-stateless-workers-'));
    cleanups.push(
      () => sim.close(),
      () => rm(directory, { recursive: true, force: true }),
    );
    const reports = await Promise.all(
      Array.from({ length: WORKERS }, (_, worker) =>
        runWorker(worker, sim, { STORE_KIND: 'file', STORE_PATH: directory }),
      ),
    );
    const { identical, groups } = check(sim, reports);
    expect(groups).toBeGreaterThan(0);
    // Every worker decides from the prompt alone (its estimated size, not a usage only it saw), and a worker that
    // lost the race to store a compaction sends the winner's: identical prompts, identical requests.
    expect(identical).toBe(groups);
    // Compactions happened and went through the shared store (else the checks above would prove little).
    expect((await readdir(join(directory, 'entries', 'by-key'))).length).toBeGreaterThan(0);
  });

  it('on PostgreSQL, cut off mid-run: every request still answered, the store’s trouble said once per worker', async () => {
    const sim = await startSimulator({ contextLimit: WINDOW });
    const schema = uniqueSchemaName('stateless');
    const store = createPostgresStore({ url: testDatabaseUrl(), schema });
    await store.migrate();
    await store.close();
    const target = new URL(testDatabaseUrl());
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    cleanups.push(
      () => sim.close(),
      () => dropSchema(schema),
    );
    const running = Promise.all(
      Array.from({ length: WORKERS }, (_, worker) =>
        runWorker(worker, sim, {
          STORE_KIND: 'postgres',
          DATABASE_URL: proxy.urlFor(testDatabaseUrl()),
          STORE_SCHEMA: schema,
        }),
      ),
    );
    // Cut PostgreSQL off once the workers are answering (the real server keeps running for everyone else).
    while (sim.requests.length < 60) await new Promise((resolve) => setTimeout(resolve, 50));
    await proxy.close();
    const reports = await running;
    check(sim, reports);
    const entries = createPostgresStore({ url: testDatabaseUrl(), schema });
    const rows = await entries.pool.query<{ count: string }>(`SELECT count(*) FROM "${schema}".entries`);
    await entries.close();
    expect(Number(rows.rows[0]!.count)).toBeGreaterThan(0);
    for (const report of reports)
      expect(report.warnings.filter((warning) => warning.includes('postgres store could not'))).toHaveLength(1);
  });
});
