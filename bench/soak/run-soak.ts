import Anthropic from '@anthropic-ai/sdk';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent, createAnthropicModel, createAnthropicSummarizer, type Agent } from '@ctxhost/anthropic';
import {
  mulberry32,
  startSimulator,
  type ModelLimits,
  type OverflowStyle,
  type SimulatorStats,
} from '@ctxhost/simulator';
import { createDefaultHost } from 'ctxhost';
import { loadCorpus, type CorpusTranscript } from './soak-corpus.js';
import { createSoakFaults } from './soak-faults.js';
import { driveSession, type SessionPlan, type SessionResult } from './soak-session.js';
import { createReadFileTool } from './soak-tools.js';

export interface SoakOptions {
  sessions: number;
  seed: number;
  /** Chance that a request gets a fault (429, 529, drop, slow, SSE error, empty reply). */
  faultRate: number;
  /** Share of sessions whose host is told a window 1.5× the API's: their prompts overflow and must be recovered. */
  overflowRate: number;
  /** Sessions in flight at once. */
  concurrency: number;
  /** The corpus folder (test/fixtures/corpus). */
  corpus: string;
  /** Largest prefix a session starts from, in messages. */
  maxPrefix: number;
  /** Called after each session (progress). */
  onSession?(done: number, result: SessionResult): void;
}

export const SOAK_DEFAULTS = {
  sessions: 1_000,
  seed: 1,
  faultRate: 0.05,
  overflowRate: 0.25,
  concurrency: 50,
  maxPrefix: 150,
} as const;

/** The windows a session can get, and how the simulator answers at each (all three overflow styles). */
const WINDOWS: readonly { tokens: number; overflowStyle: OverflowStyle }[] = [
  { tokens: 8_000, overflowStyle: 'prompt_too_long' },
  { tokens: 16_000, overflowStyle: 'input_plus_max_tokens' },
  { tokens: 32_000, overflowStyle: 'stop_reason' },
  { tokens: 64_000, overflowStyle: 'prompt_too_long' },
];
const SUMMARY_MODEL = 'soak-summarizer';
const MAX_TOKENS = 1_024;

export interface SoakReport {
  options: Omit<SoakOptions, 'corpus' | 'onSession'>;
  sessionsCompleted: number;
  /** Sessions that ended with an error naming why, by reason (numbers replaced by N). */
  sessionsEndedWithError: Record<string, number>;
  /** Up to three sessions per error reason (agent, transcript, prefix), to reproduce them. */
  errorExamples: Record<string, string[]>;
  /** Per error reason, the sessions by transcript and window. */
  errorSources: Record<string, Record<string, number>>;
  /** Sessions that ended with anything else: must be empty. */
  sessionsUnclear: Record<string, number>;
  /** Requests the simulator rejected for their shape: must be 0. */
  rejectedForShape: number;
  /** Parts checked with session.original, and those not retrievable (must be 0). */
  partsChecked: number;
  unretrievableOriginals: number;
  recoveries: number;
  manualInterventions: number;
  /** Hook failures reported by the host (`hook.failed`), by plugin, hook and message. */
  hookFailures: Record<string, number>;
  simulator: SimulatorStats & { emptyReplies: number };
  peakRssMb: number;
  /** RSS after each tenth of the sessions: flat when finished sessions leave nothing behind. */
  rssMbBySessions: Record<string, number>;
  seconds: number;
  sessionsPerSecond: number;
  requestsPerSecond: number;
}

/** Runs `sessions` agent sessions against one simulator on one default host and reports what happened. */
export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const corpus = await loadCorpus(options.corpus);
  if (corpus.length === 0) throw new Error(`soak: no transcript found under ${options.corpus}`);
  const faults = createSoakFaults({ rate: options.faultRate, seed: options.seed });
  const models: Record<string, ModelLimits> = Object.fromEntries(
    WINDOWS.map((window) => [
      modelName(window.tokens),
      { contextLimit: window.tokens, overflowStyle: window.overflowStyle },
    ]),
  );
  const sim = await startSimulator({ defaultToolUse: true, models, features: [faults.feature] });
  faults.install(sim);
  const client = new Anthropic({ apiKey: 'soak', baseURL: sim.url, maxRetries: 2, timeout: 60_000 });
  const directory = await mkdtemp(join(tmpdir(), 'ctxhost-soak-'));
  const host = await createDefaultHost({
    config: {
      store: { kind: 'file', path: directory },
      hooks: { 'anthropic-auto-compact': { initial_delay_ms: 5, max_delay_ms: 50 } },
    },
    summarizer: createAnthropicSummarizer(client, { model: SUMMARY_MODEL }),
  });
  const tally = createTally();
  host.hooks.hookFailed.tap('soak', (failure) =>
    count(tally.hookFailures, `${failure.plugin} ${failure.hook}: ${normalize(String(failure.error))}`),
  );
  host.hooks.toast.tapPromise('soak', async (toast) => {
    if (toast.title === 'Session recovered') tally.recoveries++;
    if (toast.title === 'Manual intervention needed') tally.manualInterventions++;
  });
  const agents = createAgents(host, client);
  const plans = planSessions(options, corpus);

  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    sim.requests.splice(0); // the stats keep the counts; the bodies would only grow memory
  }, 200);
  const started = performance.now();
  let next = 0;
  let done = 0;
  const rssMbBySessions: Record<string, number> = {};
  const tenth = Math.max(1, Math.floor(plans.length / 10));
  const worker = async () => {
    for (let plan = plans[next++]; plan !== undefined; plan = plans[next++]) {
      const result = await driveSession(plan, { host, agent: agents.get(plan.agentKey)!, retries: 3 });
      record(tally, result, plan);
      options.onSession?.(++done, result);
      if (done % tenth === 0) rssMbBySessions[done] = Math.round(process.memoryUsage.rss() / 1024 / 1024);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, plans.length)) }, worker));
  } finally {
    clearInterval(sampler);
    await host.dispose();
    await sim.close();
    await rm(directory, { recursive: true, force: true });
  }
  const seconds = (performance.now() - started) / 1000;
  peakRss = Math.max(peakRss, process.resourceUsage().maxRSS * 1024);
  const { corpus: _corpus, onSession: _onSession, ...reported } = options;
  return {
    options: reported,
    sessionsCompleted: tally.completed,
    sessionsEndedWithError: tally.errors,
    errorExamples: tally.examples,
    errorSources: tally.sources,
    sessionsUnclear: tally.unclear,
    rejectedForShape: sim.stats.rejectedForShape,
    partsChecked: tally.partsChecked,
    unretrievableOriginals: tally.unretrievable.length,
    recoveries: tally.recoveries,
    manualInterventions: tally.manualInterventions,
    hookFailures: tally.hookFailures,
    simulator: { ...structuredClone(sim.stats), emptyReplies: faults.emptyReplies },
    peakRssMb: Math.round(peakRss / 1024 / 1024),
    rssMbBySessions,
    seconds: Math.round(seconds * 10) / 10,
    sessionsPerSecond: Math.round((plans.length / seconds) * 10) / 10,
    requestsPerSecond: Math.round((sim.stats.requests / seconds) * 10) / 10,
  };
}

/** The window an overflow-fault session's host is told: half again the API's. */
function overstate(tokens: number): number {
  return Math.floor(tokens * 1.5);
}

function modelName(tokens: number): string {
  return `soak-${tokens / 1000}k`;
}

/** One agent per window × streaming × honest or overstated window, all on the one host. */
function createAgents(host: Parameters<typeof createAgent>[0]['host'], client: Anthropic): Map<string, Agent> {
  const agents = new Map<string, Agent>();
  for (const window of WINDOWS) {
    for (const stream of [false, true]) {
      for (const overstated of [false, true]) {
        const model = createAnthropicModel(client, {
          model: modelName(window.tokens),
          contextWindow: overstated ? overstate(window.tokens) : window.tokens,
          maxTokens: MAX_TOKENS,
          stream,
        });
        agents.set(
          agentKey(window.tokens, stream, overstated),
          createAgent({
            host,
            model,
            tools: [createReadFileTool()],
            system: 'You are a careful engineer working in a TypeScript repository.',
            maxTokens: MAX_TOKENS,
            maxTurns: 6,
            stream,
          }),
        );
      }
    }
  }
  return agents;
}

function agentKey(window: number, stream: boolean, overstated: boolean): string {
  return `${modelName(window)}${stream ? '/stream' : ''}${overstated ? '/overstated' : ''}`;
}

function planSessions(options: SoakOptions, corpus: readonly CorpusTranscript[]): SessionPlan[] {
  const random = mulberry32(options.seed ^ 0x5eed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  return Array.from({ length: options.sessions }, (_, index) => {
    const transcript = pick(corpus);
    const cuts = transcript.cutPoints.filter((cut) => cut <= options.maxPrefix);
    const window = pick(WINDOWS);
    const overstated = random() < options.overflowRate;
    return {
      index,
      sessionId: `soak-${options.seed}-${index}`,
      transcript,
      prefixLength: cuts.length > 0 ? pick(cuts) : transcript.cutPoints[0]!,
      agentKey: agentKey(window.tokens, random() < 0.5, overstated),
      contextWindow: overstated ? overstate(window.tokens) : window.tokens,
      turns: 1 + Math.floor(random() * 2),
    };
  });
}

interface Tally {
  completed: number;
  errors: Record<string, number>;
  unclear: Record<string, number>;
  examples: Record<string, string[]>;
  sources: Record<string, Record<string, number>>;
  partsChecked: number;
  unretrievable: string[];
  recoveries: number;
  manualInterventions: number;
  hookFailures: Record<string, number>;
}

function createTally(): Tally {
  return {
    completed: 0,
    errors: {},
    unclear: {},
    examples: {},
    sources: {},
    partsChecked: 0,
    unretrievable: [],
    recoveries: 0,
    manualInterventions: 0,
    hookFailures: {},
  };
}

function record(tally: Tally, result: SessionResult, plan: SessionPlan): void {
  tally.partsChecked += result.partsChecked;
  tally.unretrievable.push(...result.unretrievable);
  if (result.status === 'completed') {
    tally.completed++;
    return;
  }
  const reason = normalize(result.reason);
  count(result.status === 'error' ? tally.errors : tally.unclear, reason);
  const examples = (tally.examples[reason] ??= []);
  if (examples.length < 3) examples.push(`${plan.agentKey} ${plan.transcript.name}:${plan.prefixLength}`);
  count((tally.sources[reason] ??= {}), `${plan.transcript.name} at ${plan.agentKey.split('/')[0]}`);
}

function count(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/** Groups messages that differ only in numbers, ids and paths. */
function normalize(text: string): string {
  return text
    .replace(/req_sim_[0-9a-f]+/g, 'req_ID')
    .replace(/soak-\d+-\d+/g, 'SESSION')
    .replace(/\d[\d,]*/g, 'N')
    .slice(0, 240);
}
