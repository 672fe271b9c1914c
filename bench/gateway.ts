/**
 * ctxhost gateway against the simulator directly:
 *  - added latency: the same Messages requests (a 39-message conversation) direct and through an in-process
 *    gateway (memory store), time to the whole reply and to the first streamed text, p50 and p99;
 *  - requests per second with 1 and 2 gateway processes sharing PostgreSQL (test/gateway-fleet-worker.ts),
 *    8 clients at once, each request to the next process in turn;
 *  - heap per open conversation in the gateway's process (needs --expose-gc for a clean figure);
 *  - a long generated session replayed request by request at a 64k window it overflows, directly and through
 *    the gateway (bench/gateway-replay.ts): turns answered, input dollars, cache-read share, peak prompt.
 * Needs PostgreSQL for the processes: DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test (a schema
 * of its own, dropped afterwards).
 * Run alone: node --expose-gc --import tsx --conditions=@ctxhost/source bench/gateway.ts [--replay-only]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { GatewaySectionSchema, settingsFrom, startGateway } from '@ctxhost/gateway';
import { startSimulator, type Simulator } from '@ctxhost/simulator';
import { createPostgresStore } from '@ctxhost/store-postgres';
import { createDefaultHost } from 'ctxhost';
import type { BenchSize } from './bench.js';
import { replayThroughGateway, type ReplayCase, type ReplayFigures } from './gateway-replay.js';

export interface GatewayBenchRow {
  measure: string;
  direct: string;
  gateway: string;
  added: string;
}

const FULL = { requests: 200, throughputRequests: 400, open: 200 };
const SMALLEST = { requests: 5, throughputRequests: 16, open: 5 };
const FULL_REPLAYS: readonly ReplayCase[] = [
  { options: { seed: 1 }, heldOut: false, window: 64_000 },
  { options: { seed: 9001 }, heldOut: true, window: 64_000 },
];
const SMALLEST_REPLAYS: readonly ReplayCase[] = [{ options: { seed: 1, requests: 8 }, heldOut: false, window: 16_000 }];
const WORKER = fileURLToPath(new URL('../test/gateway-fleet-worker.ts', import.meta.url));
const CLIENTS = 8;
const HEADERS = { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': '2023-06-01' };

/** A conversation of `turns` user turns (the last one unanswered): about 9 KB of text per 40 messages. */
function conversation(id: number, turns: number): object[] {
  return Array.from({ length: turns * 2 - 1 }, (_, index) => ({
    role: index % 2 === 0 ? 'user' : 'assistant',
    content: `conversation ${id} message ${index}: ${'some ordinary words of a conversation '.repeat(20)}`,
  }));
}

async function timeOne(base: string, id: number, stream: boolean): Promise<{ total: number; first: number }> {
  const started = performance.now();
  const response = await fetch(`${base}/v1/messages`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 200, stream, messages: conversation(id, 20) }),
  });
  if (!response.ok) throw new Error(`bench gateway: ${base} answered ${response.status}: ${await response.text()}`);
  let first = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    if (first === 0 && (!stream || Buffer.from(chunk).toString().includes('text_delta')))
      first = performance.now() - started;
  }
  return { total: performance.now() - started, first };
}

const percentile = (values: readonly number[], p: number): number =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

async function latencies(base: string, stream: boolean, requests: number) {
  await timeOne(base, 0, stream);
  const totals: number[] = [];
  const firsts: number[] = [];
  for (let index = 0; index < requests; index++) {
    const { total, first } = await timeOne(base, index % 20, stream);
    totals.push(total);
    firsts.push(first);
  }
  return { totals, firsts };
}

function row(measure: string, direct: number, gateway: number, unit: string): GatewayBenchRow {
  return {
    measure,
    direct: `${direct.toFixed(2)} ${unit}`,
    gateway: `${gateway.toFixed(2)} ${unit}`,
    added: `${(gateway - direct).toFixed(2)} ${unit}`,
  };
}

async function latencyRows(sim: Simulator, requests: number): Promise<GatewayBenchRow[]> {
  const gateway = await startGateway({
    settings: settingsFrom(GatewaySectionSchema.parse({}), sim.url),
    host: () => createDefaultHost({ config: { store: { kind: 'memory' } } }),
  });
  try {
    const rows: GatewayBenchRow[] = [];
    for (const stream of [false, true]) {
      const direct = await latencies(sim.url, stream, requests);
      const through = await latencies(gateway.url, stream, requests);
      const kind = stream ? 'streamed' : 'complete';
      rows.push(row(`${kind} reply p50`, percentile(direct.totals, 50), percentile(through.totals, 50), 'ms'));
      rows.push(row(`${kind} reply p99`, percentile(direct.totals, 99), percentile(through.totals, 99), 'ms'));
      if (stream) {
        rows.push(row('first streamed text p50', percentile(direct.firsts, 50), percentile(through.firsts, 50), 'ms'));
        rows.push(row('first streamed text p99', percentile(direct.firsts, 99), percentile(through.firsts, 99), 'ms'));
      }
    }
    return rows;
  } finally {
    await gateway.close();
  }
}

/** Heap the gateway's process holds per open conversation (each a live view), `open` distinct ones. */
async function memoryRow(sim: Simulator, open: number): Promise<GatewayBenchRow> {
  const gateway = await startGateway({
    settings: settingsFrom(GatewaySectionSchema.parse({}), sim.url),
    host: () => createDefaultHost({ config: { store: { kind: 'memory' } } }),
  });
  try {
    await timeOne(gateway.url, 0, false);
    global.gc?.();
    const before = process.memoryUsage().heapUsed;
    for (let index = 0; index < open; index++) await timeOne(gateway.url, 1000 + index, false);
    global.gc?.();
    const perView = (process.memoryUsage().heapUsed - before) / open / 1024;
    return {
      measure: `heap per open conversation (39 messages; ${gateway.handler.views()} views open${global.gc === undefined ? '; no --expose-gc' : ''})`,
      direct: '',
      gateway: `${perView.toFixed(1)} KiB`,
      added: '',
    };
  } finally {
    await gateway.close();
  }
}

/** Starts one gateway process on the shared store; resolves its URL and a stop. */
function startProcess(sim: Simulator, schema: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const tsx = createRequire(import.meta.url).resolve('tsx');
  const child: ChildProcess = spawn(process.execPath, ['--import', tsx, '--conditions=@ctxhost/source', WORKER], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SIM_URL: sim.url, WINDOW: '200000', DATABASE_URL: databaseUrl(), STORE_SCHEMA: schema },
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url !== undefined) resolve({ url, stop });
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`bench gateway: a gateway process exited (${code}): ${output}`)));
  });
}

/** Requests per second through `urls` (each request to the next in turn), CLIENTS at once. */
async function requestsPerSecond(urls: readonly string[], requests: number): Promise<number> {
  for (const url of urls) await timeOne(url, 0, false);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let index = next++; index < requests; index = next++)
        await timeOne(urls[index % urls.length]!, index % 50, false);
    }),
  );
  return requests / ((performance.now() - started) / 1000);
}

async function throughputRows(sim: Simulator, requests: number): Promise<GatewayBenchRow[]> {
  const schema = `ctxhost_bench_gateway_${randomBytes(6).toString('hex')}`;
  const direct = await requestsPerSecond([sim.url], requests);
  const processes = await Promise.all([startProcess(sim, schema), startProcess(sim, schema)]);
  try {
    const one = await requestsPerSecond([processes[0].url], requests);
    const two = await requestsPerSecond(
      processes.map((each) => each.url),
      requests,
    );
    return [
      { measure: `requests/s, ${CLIENTS} clients, 1 gateway process (PostgreSQL)`, ...perSecond(direct, one) },
      { measure: `requests/s, ${CLIENTS} clients, 2 gateway processes (PostgreSQL)`, ...perSecond(direct, two) },
    ];
  } finally {
    await Promise.all(processes.map((each) => each.stop()));
    const store = createPostgresStore({ url: databaseUrl(), schema });
    await store.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => store.close());
  }
}

function perSecond(direct: number, gateway: number): Omit<GatewayBenchRow, 'measure'> {
  return { direct: direct.toFixed(1), gateway: gateway.toFixed(1), added: `${(gateway / direct).toFixed(2)}×` };
}

function databaseUrl(): string {
  return process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
}

/** The long replayed session, direct vs through the gateway: one row per figure. */
async function replayRows(replayCase: ReplayCase): Promise<GatewayBenchRow[]> {
  const { direct, gateway } = await replayThroughGateway(replayCase);
  const { seed, requests } = replayCase.options;
  const name = `seed ${seed}${requests === undefined ? '' : ` (${requests} user requests)`}${replayCase.heldOut ? ' (held out)' : ''} at ${replayCase.window / 1000}k`;
  const figures: Array<[string, (run: ReplayFigures) => string, (d: ReplayFigures, g: ReplayFigures) => string]> = [
    ['turns answered', (run) => `${run.answered}/${run.requests}`, (d, g) => `+${g.answered - d.answered}`],
    [
      'upstream requests',
      (run) => String(run.upstreamRequests),
      (d, g) => `+${g.upstreamRequests - d.upstreamRequests}`,
    ],
    [
      'input dollars',
      (run) => `$${run.inputDollars.toFixed(3)}`,
      (d, g) => `${(g.inputDollars / d.inputDollars).toFixed(2)}×`,
    ],
    [
      'input dollars per answered turn',
      (run) => `$${(run.inputDollars / Math.max(1, run.answered)).toFixed(4)}`,
      (d, g) =>
        `${(g.inputDollars / Math.max(1, g.answered) / (d.inputDollars / Math.max(1, d.answered))).toFixed(2)}×`,
    ],
    [
      'cache-read share',
      (run) => `${Math.round(run.cacheReadShare * 100)}%`,
      (d, g) => `${Math.round((g.cacheReadShare - d.cacheReadShare) * 100)} pts`,
    ],
    ['peak prompt', (run) => `${run.peakPrompt} tokens`, (d, g) => `${g.peakPrompt - d.peakPrompt} tokens`],
  ];
  return figures.map(([figure, show, added]) => ({
    measure: `replayed session, ${name}: ${figure}`,
    direct: show(direct),
    gateway: show(gateway),
    added: added(direct, gateway),
  }));
}

export async function runGateway(size: BenchSize = 'full'): Promise<GatewayBenchRow[]> {
  const counts = size === 'smallest' ? SMALLEST : FULL;
  const sim = await startSimulator({ contextLimit: 200_000, maxRecordedRequests: 10 });
  try {
    return [
      ...(await latencyRows(sim, counts.requests)),
      ...(await throughputRows(sim, counts.throughputRequests)),
      await memoryRow(sim, counts.open),
      ...(await replays(size)),
    ];
  } finally {
    await sim.close();
  }
}

async function replays(size: BenchSize): Promise<GatewayBenchRow[]> {
  const rows: GatewayBenchRow[] = [];
  for (const replayCase of size === 'smallest' ? SMALLEST_REPLAYS : FULL_REPLAYS)
    rows.push(...(await replayRows(replayCase)));
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  console.table(process.argv.includes('--replay-only') ? await replays('full') : await runGateway());
