/**
 * Time to first token of the request that reaches the compaction threshold,
 * with a summarizer that takes 3 s: the default host and the Anthropic agent
 * over the real SDK against the simulator (the agent's model answering after
 * `MODEL_MS`, the summary model after 3 s), the user reading each reply for
 * `THINK_MS` before the next request. Three runs of the same session:
 * compaction off (the floor), compaction inline (`compression.background:
 * false`, the default: the request waits for the summary), and background
 * compaction (`true`: prepared once growth says the threshold is two requests away, swapped in at it).
 * Time to first token: from `agent.send` to the response headers of its first
 * model request (streaming, so the first event).
 *
 * Alone: npx tsx --conditions=@ctxhost/source bench/background-compaction.ts
 */
import { pathToFileURL } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { createAgent, createAnthropicModel, createAnthropicSummarizer } from '@ctxhost/anthropic';
import { createMemoryStore } from '@ctxhost/core';
import { startSimulator } from '@ctxhost/simulator';
import { createDefaultHost } from 'ctxhost';
import type { BenchSize } from './bench.js';

export interface BackgroundCompactionRow {
  run: 'compaction off' | 'inline' | 'background';
  /** The request (1-based `send`) measured: the one that reached the threshold. */
  request: number;
  /** ms from `send` to the first byte of its model response. */
  firstTokenMs: number;
  /** firstTokenMs / the same request with compaction off. */
  ratio: number;
  summaryCalls: number;
  compactions: number;
}

const AGENT_MODEL = 'claude-sonnet-4-6';
const SUMMARY_MODEL = 'claude-haiku-4-5';

export interface BackgroundCompactionOptions {
  window?: number;
  summaryMs?: number;
  modelMs?: number;
  thinkMs?: number;
}

const TIMINGS: Record<BenchSize, Required<BackgroundCompactionOptions>> = {
  full: { window: 16_000, summaryMs: 3_000, modelMs: 500, thinkMs: 2_000 },
  smallest: { window: 8_000, summaryMs: 100, modelMs: 0, thinkMs: 150 },
};

/** `window`: the context window; `summaryMs`: the summary model's answer time; `modelMs`: the agent model's; `thinkMs`: the user's pause between requests. */
export async function runBackgroundCompaction(
  size: BenchSize = 'full',
  options: BackgroundCompactionOptions = {},
): Promise<BackgroundCompactionRow[]> {
  const timing = { ...TIMINGS[size], ...options };
  const background = await runSession('background', timing, undefined);
  const request = background.crossing;
  if (request === undefined) throw new Error('background-compaction bench: no request reached the threshold');
  const off = await runSession('compaction off', timing, request);
  const inline = await runSession('inline', timing, request);
  const floor = off.firstTokenMs[request - 1]!;
  return [off, inline, background].map((result) => ({
    run: result.run,
    request,
    firstTokenMs: Math.round(result.firstTokenMs[request - 1]!),
    ratio: Math.round((result.firstTokenMs[request - 1]! / floor) * 100) / 100,
    summaryCalls: result.summaryCalls,
    compactions: result.compactions,
  }));
}

interface SessionRun {
  run: BackgroundCompactionRow['run'];
  firstTokenMs: number[];
  crossing: number | undefined;
  summaryCalls: number;
  compactions: number;
}

async function runSession(
  run: BackgroundCompactionRow['run'],
  timing: Required<BackgroundCompactionOptions>,
  requests: number | undefined,
): Promise<SessionRun> {
  const sim = await startSimulator();
  sim.faults.when((request) => request.model === SUMMARY_MODEL, { kind: 'slow', delayMs: timing.summaryMs });
  sim.faults.when((request) => request.model === AGENT_MODEL, { kind: 'slow', delayMs: timing.modelMs });
  let firstResponseAt: number | undefined;
  const fetchTimed: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const url = input instanceof Request ? input.url : String(input);
    // The model request, not a count_tokens call the agent makes near the window.
    if (new URL(url).pathname === '/v1/messages') firstResponseAt ??= performance.now();
    return response;
  };
  const agentClient = new Anthropic({ apiKey: 'test', baseURL: sim.url, maxRetries: 0, fetch: fetchTimed });
  const summaryClient = new Anthropic({ apiKey: 'test', baseURL: sim.url, maxRetries: 0 });
  let summaryCalls = 0;
  const base = createAnthropicSummarizer(summaryClient, { model: SUMMARY_MODEL });
  const host = await createDefaultHost({
    config: {
      store: { kind: 'memory' },
      model: { contextLength: timing.window },
      compression: { enabled: run !== 'compaction off', protectLastN: 4, background: run === 'background' },
    },
    store: createMemoryStore(),
    summarizer: { ...base, summarize: (request) => (summaryCalls++, base.summarize(request)) },
  });
  let compactions = 0;
  let crossing: number | undefined;
  const firstTokenMs: number[] = [];
  host.hooks.compactionCompleted.tapPromise('bench', async () => {
    compactions++;
    crossing ??= firstTokenMs.length + 1;
  });
  const agent = createAgent({
    host,
    model: createAnthropicModel(agentClient, { model: AGENT_MODEL }),
    system: 'You are a coding agent.',
    stream: true,
  });
  try {
    for (let turn = 1; requests === undefined ? crossing === undefined && turn <= 60 : turn <= requests; turn++) {
      firstResponseAt = undefined;
      const started = performance.now();
      const outcome = await agent.send('bench', ask(turn));
      if (outcome.status !== 'done') throw new Error(`background-compaction bench: request ${turn} ${outcome.status}`);
      firstTokenMs.push((firstResponseAt ?? performance.now()) - started);
      await new Promise((resolve) => setTimeout(resolve, timing.thinkMs));
    }
  } finally {
    await host.dispose();
    await sim.close();
  }
  return { run, firstTokenMs, crossing, summaryCalls, compactions };
}

function ask(turn: number): string {
  return `request ${turn}: update src/module${turn}.ts and run the tests. ${'context for this step '.repeat(60)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(await runBackgroundCompaction());
