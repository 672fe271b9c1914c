/**
 * The stateless path inside a service: N worker processes × M conversations through each framework
 * integration against one simulator, on the file store and on PostgreSQL (cut off through a TCP proxy
 * a third of the way in). A quarter of the conversations open identically, a quarter share a long
 * brief, each carries a marker no other conversation's requests may hold, and each runs on two
 * workers (identical prompts on different workers). Per run: caller-visible errors, requests holding
 * another conversation's marker, identical projections for identical prompts, the cache-read share
 * against one process running the same conversations, and each call's time outside the provider's
 * HTTP requests (p50/p99: ctxhost's and the framework's work). test/stateless-worker.ts is the worker.
 *
 * Alone: npx tsx --conditions=@ctxhost/source bench/stateless-workers.ts [workers] [conversations] [turns] [integrations,…] [stores,…]
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSimulator, type RecordedRequest, type Simulator } from '@ctxhost/simulator';
import { createPostgresStore } from '@ctxhost/store-postgres';
import { startTcpProxy } from '../packages/store-postgres/src/tcp-proxy.test-helper.js';
import {
  dropSchema,
  testDatabaseUrl,
  uniqueSchemaName,
} from '../packages/store-postgres/src/test-database.test-helper.js';
import { markersIn } from '../test/support/stateless-conversations.js';
import type { BenchSize } from './bench.js';
import { INTEGRATION_ADAPTERS } from './integrations/adapters.js';
import { isModelCall } from './integration-scenarios.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WORKER = fileURLToPath(new URL('../test/stateless-worker.ts', import.meta.url));
const WINDOW = 6000;

export interface StatelessWorkersRow {
  integration: string;
  store: string;
  workers: number;
  conversations: number;
  requests: number;
  callerErrors: number;
  /** Requests that held a marker of another conversation (must be 0). */
  leaks: number;
  /** Prompts sent by more than one worker whose requests were byte-identical. */
  identicalProjections: string;
  /** Cache reads over prompt tokens: these workers, and one process running the same conversations (every copy). */
  cacheReadShare: string;
  cacheReadShareOneProcess: string;
  overheadP50Ms: number;
  overheadP99Ms: number;
  /** Workers that said the store's trouble (postgres: cut off mid-run), of all workers. */
  storeWarned: string;
}

interface WorkerReport {
  errors: string[];
  overhead: number[];
  warnings: string[];
}

interface RunSpec {
  integration: string;
  store: 'file' | 'postgres';
  workers: number;
  conversations: number;
  turns: number;
  copies: number;
}

function runWorker(worker: number, spec: RunSpec, sim: Simulator, environment: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@ctxhost/source', WORKER], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      SIM_URL: sim.url,
      INTEGRATION: spec.integration,
      WORKER: String(worker),
      WORKERS: String(spec.workers),
      CONVERSATIONS: String(spec.conversations),
      TURNS: String(spec.turns),
      WINDOW: String(WINDOW),
      COPIES: String(spec.copies),
      ...environment,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return {
    kill: () => child.kill('SIGKILL'),
    done: new Promise<WorkerReport>((resolve, reject) =>
      child.on('exit', (code) =>
        code === 0
          ? resolve(JSON.parse(stdout.trim().split('\n').at(-1)!) as WorkerReport)
          : reject(new Error(`worker ${worker} (${spec.integration}) exited with ${code}: ${stderr.slice(-2000)}`)),
      ),
    ),
  };
}

const answered = (sim: Simulator) => sim.requests.filter((request) => isModelCall(request) && request.status === 200);

/** A message of a Messages or Chat Completions body, or an item of a Responses `input`. */
type Turn = { role?: string; content?: unknown };

/** Requests grouped by the prompt's last user turn (the same turn of the same conversation on any worker). */
function identicalShare(requests: readonly RecordedRequest[]): string {
  const groups = new Map<string, Set<string>>();
  const counts = new Map<string, number>();
  for (const request of requests) {
    const body = request.body as { messages?: Turn[]; input?: Turn[] };
    const turns = body.messages ?? body.input ?? [];
    const last = JSON.stringify(turns.filter((message) => message.role === 'user').at(-1));
    groups.set(last, (groups.get(last) ?? new Set()).add(JSON.stringify(body)));
    counts.set(last, (counts.get(last) ?? 0) + 1);
  }
  const shared = [...groups].filter(([last]) => counts.get(last)! > 1);
  const identical = shared.filter(([, bodies]) => bodies.size === 1).length;
  return `${identical}/${shared.length} (${shared.length === 0 ? 0 : Math.round((identical / shared.length) * 1000) / 10}%)`;
}

function cacheReadShare(requests: readonly RecordedRequest[]): number {
  let read = 0;
  let prompt = 0;
  for (const request of requests) {
    const usage = request.usage;
    if (usage === undefined) continue;
    read += usage.cache_read_input_tokens ?? 0;
    prompt += usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
  }
  return prompt === 0 ? 0 : read / prompt;
}

function percentile(values: readonly number[], share: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((left, right) => left - right);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]! * 10) / 10;
}

async function runOnce(spec: RunSpec): Promise<{ sim: Simulator; reports: WorkerReport[] }> {
  const sim = await startSimulator({ contextLimit: WINDOW });
  const cleanups: (() => Promise<unknown>)[] = [];
  const workers: ReturnType<typeof runWorker>[] = [];
  try {
    let environment: Record<string, string>;
    let cut: (() => Promise<void>) | undefined;
    if (spec.store === 'file') {
      const directory = await mkdtemp(join(tmpdir(), 'ctxhost-stateless-bench-'));
      cleanups.push(() => rm(directory, { recursive: true, force: true }));
      environment = { STORE_KIND: 'file', STORE_PATH: directory };
    } else {
      const schema = uniqueSchemaName('stateless_bench');
      const store = createPostgresStore({ url: testDatabaseUrl(), schema });
      await store.migrate();
      await store.close();
      cleanups.push(() => dropSchema(schema));
      const target = new URL(testDatabaseUrl());
      const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      cut = () => proxy.close();
      environment = { STORE_KIND: 'postgres', DATABASE_URL: proxy.urlFor(testDatabaseUrl()), STORE_SCHEMA: schema };
    }
    for (let worker = 0; worker < spec.workers; worker++) workers.push(runWorker(worker, spec, sim, environment));
    const reports = Promise.all(workers.map((worker) => worker.done));
    if (cut !== undefined) {
      // PostgreSQL goes away a third of the way in (the server keeps running for everyone else).
      const expected = spec.conversations * spec.copies * spec.turns;
      let finished = false;
      void reports.finally(() => (finished = true)).catch(() => undefined);
      while (!finished && answered(sim).length < expected / 3) await new Promise((resolve) => setTimeout(resolve, 50));
      await cut();
    }
    return { sim, reports: await reports };
  } catch (error) {
    for (const worker of workers) worker.kill();
    await sim.close();
    throw error;
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
}

/** The cache-read share of one process running the same conversations (every copy), per integration and size. */
const oneProcessShares = new Map<string, Promise<number>>();
function oneProcessShare(spec: RunSpec): Promise<number> {
  const key = JSON.stringify([spec.integration, spec.conversations, spec.turns, spec.copies]);
  let share = oneProcessShares.get(key);
  if (share === undefined) {
    share = runOnce({ ...spec, store: 'file', workers: 1 }).then(async (single) => {
      const value = cacheReadShare(answered(single.sim));
      await single.sim.close();
      return value;
    });
    oneProcessShares.set(key, share);
  }
  return share;
}

async function measure(spec: RunSpec): Promise<StatelessWorkersRow> {
  const { sim, reports } = await runOnce(spec);
  const requests = answered(sim);
  const leaks = sim.requests.filter((request) => markersIn(JSON.stringify(request.body)).size > 1).length;
  await sim.close();
  const oneProcess = await oneProcessShare(spec);
  const overhead = reports.flatMap((report) => report.overhead);
  const percent = (value: number) => `${Math.round(value * 1000) / 10}%`;
  return {
    integration: spec.integration,
    store: spec.store === 'postgres' ? 'postgres, cut off a third in' : 'file',
    workers: spec.workers,
    conversations: spec.conversations,
    requests: requests.length,
    callerErrors: reports.reduce((sum, report) => sum + report.errors.length, 0),
    leaks,
    identicalProjections: identicalShare(requests),
    cacheReadShare: percent(cacheReadShare(requests)),
    cacheReadShareOneProcess: percent(oneProcess),
    overheadP50Ms: percentile(overhead, 0.5),
    overheadP99Ms: percentile(overhead, 0.99),
    storeWarned: `${reports.filter((report) => report.warnings.some((warning) => warning.includes('store could not'))).length}/${reports.length}`,
  };
}

export async function runStatelessWorkers(
  size: BenchSize = 'full',
  shape: {
    workers?: number;
    conversations?: number;
    turns?: number;
    integrations?: readonly string[];
    stores?: readonly ('file' | 'postgres')[];
  } = {},
): Promise<StatelessWorkersRow[]> {
  const smallest = size === 'smallest';
  const workers = shape.workers ?? (smallest ? 2 : 4);
  const conversations = shape.conversations ?? (smallest ? 4 : 200);
  const turns = shape.turns ?? (smallest ? 3 : 6);
  const integrations = shape.integrations ?? (smallest ? ['ai-sdk'] : INTEGRATION_ADAPTERS.map((a) => a.name));
  const stores = shape.stores ?? (smallest ? ['file'] : ['file', 'postgres']);
  const rows: StatelessWorkersRow[] = [];
  for (const integration of integrations)
    for (const store of stores)
      rows.push(await measure({ integration, store, workers, conversations, turns, copies: 2 }));
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [workers, conversations, turns, integrations, stores] = process.argv.slice(2);
  const rows = await runStatelessWorkers('full', {
    ...(workers === undefined ? {} : { workers: Number(workers) }),
    ...(conversations === undefined ? {} : { conversations: Number(conversations) }),
    ...(turns === undefined ? {} : { turns: Number(turns) }),
    ...(integrations === undefined ? {} : { integrations: integrations.split(',') }),
    ...(stores === undefined ? {} : { stores: stores.split(',') as ('file' | 'postgres')[] }),
  });
  console.table(rows);
}
