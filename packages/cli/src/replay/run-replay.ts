import Anthropic from '@anthropic-ai/sdk';
import { MonitorConfigSchema } from '@ctxhost/context-window-monitor';
import type { CostReport } from '@ctxhost/prompt-caching';
import type { TranscriptUsage } from '@ctxhost/transcripts';
import { builtInFeatures, startSimulator, type WarmCache } from '@ctxhost/simulator';
import {
  createAgent,
  createAnthropicModel,
  createAnthropicSummarizer,
  createDefaultHost,
  createMessage,
  withDefaults,
  type Agent,
  type AgentTool,
  type AgentToolOutput,
  type CtxhostConfig,
  type Message,
  type PartialConfig,
  type Usage,
} from 'ctxhost';
import { priceByModel, type ModelCost, type ModelOverrides } from '../pricing.js';
import { reconstructPrefix, type ReconstructedPrefix } from './reconstruct-prefix.js';
import { recordedFiles } from './recorded-files.js';
import { buildReplayPlan, type ReplayPlan, type ReplayThread } from './replay-plan.js';
import { recordReplay, type ReplayEvent, type ReplayPoint } from './replay-recorder.js';
import { createReplayResponder } from './replay-responder.js';
import { SUMMARIZER_CALLER, SUMMARIZER_CALLER_HEADER, summarizerCost, type SummarizerCost } from './summarizer-cost.js';

export interface ReplayOptions {
  messages: readonly Message[];
  /** Message indices where the agent compacted its own conversation: the main thread is replayed segment by segment from there. */
  boundaries?: readonly number[];
  /**
   * The transcript's recorded usage: sizes the stand-in for the unlogged system prompt and tools (without it, none
   * is added), and each replayed turn reports the output tokens its recorded request was billed for (without it,
   * the simulator's tokenizer counts them). Prompt tokens are always the simulator's count of what ctxhost sent.
   */
  usage?: readonly TranscriptUsage[];
  /** Add the stand-in for the unlogged system prompt and tools (default true; needs `usage`). */
  reconstructPrefix?: boolean;
  /**
   * Start with the cache the recording shows: the tokens each thread's first recorded request read
   * from the cache (its system prompt and tools, warmed before the session) are cached before the
   * replay's first request with the same head, so it reads them instead of writing them. Only the
   * head the replay sends unchanged is credited. Default false: the replay starts cold.
   */
  warmStart?: boolean;
  /** The host's context window (`model.context_length`). */
  window: number;
  /** The limit the simulated API enforces; default the window. Below it, the API rejects prompts the host believed fit, as real APIs do (180,000 on a 200k model). */
  contextLimit?: number;
  /** Config as loaded from files; a memory store and the window (and `engine`, if given) are set over it. */
  config?: PartialConfig;
  engine?: string;
  /** Where plugin folders (`context_engine/NAME/`) are looked up. */
  cwd?: string;
  /** `--project-plugins`: also look in `<cwd>/.ctxhost/plugins`. */
  projectPlugins?: boolean;
  /** Told the file a plugin engine is about to be imported from (the CLI prints it). */
  onPluginLoad?: (info: { name: string; file: string }) => void;
  /** Sends and prices every call as this model (`--model`, `model.name`); default each recorded turn's own model. */
  model?: string;
  /**
   * After each compaction, offer the files it touched again as the session's own record last showed them
   * (`recorded`: the rehydration an agent host does from disk, measured without the recorded machine's disk).
   * Default: the replay's agent answers from the working directory, as the agent loop does.
   */
  rehydration?: 'recorded';
  /** A client for the real API: the summarizer uses it instead of the simulator. */
  summaryClient?: Anthropic;
  onEvent?: (event: ReplayEvent) => void;
  /** After each answered model call: recorded turns answered so far, and how many the transcript has. */
  onProgress?: (answered: number, total: number) => void;
}

/** Totals of the replay's model calls (the summarizer's calls are not counted). */
export type ReplayCost = Pick<
  CostReport,
  'requests' | 'tokens' | 'withoutCaching' | 'dollarsSaved' | 'cacheHitRatio'
> & {
  dollars: number;
  /** Each model's calls at its own price; a model with no price is listed with the reason and left out of the dollar totals (its calls and tokens count). */
  byModel: ModelCost[];
};

/** The stand-in for what the transcript did not log, per kind of session (the numbers of `ReconstructedPrefix`). */
export type ReconstructedReport = Omit<ReconstructedPrefix, 'system' | 'warmSplit'>;

export interface ReplayResult {
  window: number;
  contextLimit: number;
  /** The model name sent with each call (the override, else the transcript's most used model). */
  model: string;
  /** True when `model` was given (`--model`, `model.name`) and prices every call; false when each call is priced as its recorded turn's model. */
  modelOverride: boolean;
  engine: string;
  /** Main-thread segments replayed: 1 plus the agent's own compactions in the transcript. */
  segments: number;
  /** Logged lines that were never sent (`/exit`, local command output, interruptions), left out. */
  uiOnlyMessages: number;
  /** The reconstructed system prompt and tools, reported as such; absent where the transcript reported no usage. */
  reconstructed: { main?: ReconstructedReport; subagents?: ReconstructedReport };
  summarizer: string;
  /** Fractions of the window; `warnAt` and `criticalAt` are absent when the monitor is disabled. */
  thresholds: { warnAt?: number; criticalAt?: number; engineAt: number };
  points: ReplayPoint[];
  events: ReplayEvent[];
  peak: number;
  compactions: number;
  /** Compactions tried and not done (said once per session as a toast; this counts every one). */
  compactionsNotDone: number;
  overflows: number;
  /** Overflow incidents: an overflow, and those on the recovery's own resends, until it recovered or gave up. */
  incidents: number;
  recoveries: number;
  failedRecoveries: number;
  sessions: number;
  recordedTurns: number;
  answeredTurns: number;
  /** Recorded turns answered again because a recovery reverted a response and the agent asked anew. */
  repeatedTurns: number;
  /** Model calls whose request the transcript records no turn for (the simulator's own reply answered): 0 unless something the plan did not foresee asked anew. */
  unrecordedCalls: number;
  /** User messages with no recorded answer, sent with the next one (interrupted requests), and those left out at a thread's end. */
  unansweredUserTurns: { sentWithNext: number; leftOut: number };
  /** Tool calls after whose results the transcript records no turn (the user stopped them, or it ends there): the turn ended there. */
  turnsEndedAfterTools: number;
  cost: ReplayCost;
  /** The summarizer's own calls, priced apart from the turns; absent when they went to the real API (`--live`). */
  summarizerCost?: SummarizerCost;
}

const DEFAULT_MODEL = 'claude-sonnet-4-6';
const REPLAY_REHYDRATION = 'ctxhost-replay-rehydration';
const NO_OUTPUT = { output: 'The transcript recorded no output for this call.', isError: true } as const;

/**
 * Replays a transcript through a real host with every hook as configured: the
 * user turns and tool outputs as recorded, the assistant's turns played back
 * by the simulator over HTTP through the real SDK and the agent loop.
 */
export async function runReplay(options: ReplayOptions): Promise<ReplayResult> {
  const model = options.model ?? mostUsedModel(options.messages) ?? DEFAULT_MODEL;
  const plan = buildReplayPlan(options.messages, 'replay', {
    boundaries: options.boundaries ?? [],
    outputTokens: recordedOutputTokens(options.usage ?? []),
  });
  const prefixes = { main: prefixFor(options, plan, false), subagents: prefixFor(options, plan, true) };
  const responder = createReplayResponder(plan.turns);
  const warm = warmStart(options.warmStart === true ? prefixes : {});
  const contextLimit = options.contextLimit ?? options.window;
  // The responder first, so the server's own context management (when configured) acts on the recorded turn it picked.
  // Any model name: a transcript may name models the registry does not know.
  const simulator = await startSimulator({
    contextLimit,
    acceptAnyModel: true,
    features: [responder.feature, ...builtInFeatures()],
    warmCache: warm.cache,
  });
  const client = new Anthropic({ apiKey: 'replay', baseURL: simulator.url, maxRetries: 0 });
  const config = withDefaults({
    ...options.config,
    store: { kind: 'memory' },
    model: { ...options.config?.model, contextLength: options.window },
    ...(options.engine === undefined ? {} : { context: { engine: options.engine } }),
  });
  const summaryClient =
    options.summaryClient ??
    new Anthropic({
      apiKey: 'replay',
      baseURL: simulator.url,
      maxRetries: 0,
      defaultHeaders: { [SUMMARIZER_CALLER_HEADER]: SUMMARIZER_CALLER },
    });
  const summaryModel = config.auxiliary.compression.model ?? model;
  const summarizer = createAnthropicSummarizer(summaryClient, {
    model: summaryModel,
    ...(options.summaryClient === undefined ? { maxInputTokens: Math.floor(contextLimit / 2) } : {}),
  });
  try {
    const host = await createDefaultHost({
      config,
      summarizer,
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      ...(options.projectPlugins === undefined ? {} : { projectPlugins: options.projectPlugins }),
      ...(options.onPluginLoad === undefined ? {} : { onPluginLoad: options.onPluginLoad }),
    });
    if (options.rehydration === 'recorded')
      host.hooks.rehydrate.tapPromise(REPLAY_REHYDRATION, async ({ sessionId, paths }) =>
        recordedFiles((await host.session(sessionId)).history(), paths),
      );
    const priceAs = (sessionId: string): string => options.model ?? responder.modelOf(sessionId) ?? model;
    const recording = recordReplay(
      host,
      priceAs,
      {
        ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
        onPoint: () => options.onProgress?.(responder.answered, plan.assistantTurns),
      },
      config.models,
    );
    try {
      const sessions = new Set<string>();
      const tools = plan.tools.map((definition): AgentTool => ({
        definition,
        run: async (_input, { sessionId }) => runTool(sessionId),
      }));
      const agentFor = (system: string | undefined) =>
        createAgent({
          host,
          model: createAnthropicModel(client, { model, contextWindow: options.window }),
          tools,
          maxTokens: 1024,
          maxTurns: 500,
          // A replay never reads the disk it runs on: a transcript's paths name another machine's files.
          workspace: false,
          ...(system === undefined ? {} : { system }),
        });
      // A head sent in two blocks (the warm one first) is put in each session before the agent's first call.
      const mainAgent = agentFor(warm.main === undefined ? (prefixes.main?.system ?? plan.system) : undefined);
      const subagentAgent = agentFor(
        warm.subagents === undefined ? (prefixes.subagents?.system ?? plan.system) : undefined,
      );
      // `head`: the system blocks put first (a default parameter would stand in for a subagent's undefined).
      const drive = async (thread: ReplayThread, agent: Agent, head: readonly string[] | undefined): Promise<void> => {
        if (!sessions.has(thread.sessionId) && head !== undefined) {
          const session = await host.session(thread.sessionId);
          await session.append(
            createMessage(
              'system',
              head.map((text) => ({ type: 'text', text })),
            ),
          );
        }
        sessions.add(thread.sessionId);
        for (const turn of thread.userTurns) {
          await agent.send(thread.sessionId, { ...turn, id: `${thread.sessionId}:${turn.id}` });
        }
      };
      let turnsEndedAfterTools = 0;
      async function runTool(sessionId: string): Promise<AgentToolOutput> {
        const callId = responder.takeCallId(sessionId);
        if (callId === undefined) return NO_OUTPUT;
        for (const thread of plan.subagents.get(callId) ?? []) await drive(thread, subagentAgent, warm.subagents);
        const output = plan.outputs.get(callId) ?? NO_OUTPUT;
        // The transcript records no turn after this result: asking the model would answer a turn nobody recorded.
        if (plan.answeredCalls.has(callId)) return output;
        turnsEndedAfterTools++;
        return { ...output, endTurn: true };
      }
      for (const segment of plan.segments) await drive(segment, mainAgent, warm.main);
      return summarize({
        config,
        engine: host.engine.name,
        plan,
        points: recording.points,
        events: recording.events,
        compactionsNotDone: recording.notDone.count,
        cost: totalCost(recording.requests, config.models),
        model,
        modelOverride: options.model !== undefined,
        reconstructed: {
          ...(prefixes.main === undefined ? {} : { main: withoutText(prefixes.main) }),
          ...(prefixes.subagents === undefined ? {} : { subagents: withoutText(prefixes.subagents) }),
        },
        contextLimit,
        window: options.window,
        summarizer: summarizer.name,
        sessions: sessions.size,
        answered: responder.answered,
        repeated: responder.repeated,
        turnsEndedAfterTools,
        ...(options.summaryClient === undefined
          ? { summarizerCost: summarizerCost(simulator.requests, summaryModel, config.models) }
          : {}),
      });
    } finally {
      await host.dispose();
    }
  } finally {
    await simulator.close();
  }
}

interface ReplayFacts {
  config: CtxhostConfig;
  /** The engine in use: the one `context.engine` names. */
  engine: string;
  plan: ReplayPlan;
  points: ReplayPoint[];
  events: ReplayEvent[];
  compactionsNotDone: number;
  cost: ReplayCost;
  model: string;
  modelOverride: boolean;
  reconstructed: ReplayResult['reconstructed'];
  window: number;
  contextLimit: number;
  summarizer: string;
  sessions: number;
  answered: number;
  repeated: number;
  turnsEndedAfterTools: number;
  summarizerCost?: SummarizerCost;
}

function summarize(facts: ReplayFacts): ReplayResult {
  const { config, events, points } = facts;
  const count = (kind: ReplayEvent['kind']) => events.filter((event) => event.kind === kind).length;
  return {
    window: facts.window,
    contextLimit: facts.contextLimit,
    model: facts.model,
    modelOverride: facts.modelOverride,
    engine: facts.engine,
    segments: facts.plan.segments.length,
    uiOnlyMessages: facts.plan.uiOnlyMessages,
    reconstructed: facts.reconstructed,
    summarizer: facts.summarizer,
    thresholds: { ...monitorThresholds(config), engineAt: config.compression.threshold },
    points,
    events,
    peak: Math.max(0, ...points.map((point) => point.contextTokens)),
    compactions: count('compaction'),
    compactionsNotDone: facts.compactionsNotDone,
    overflows: count('overflow'),
    incidents: countIncidents(events),
    recoveries: count('recovery'),
    failedRecoveries: count('recovery-failed'),
    sessions: facts.sessions,
    recordedTurns: facts.plan.assistantTurns,
    answeredTurns: facts.answered,
    repeatedTurns: facts.repeated,
    // The session's model calls (the summarizer's are not session messages) that no recorded turn answered.
    unrecordedCalls: points.length - facts.answered - facts.repeated,
    unansweredUserTurns: { sentWithNext: facts.plan.userTurnsSentWithNext, leftOut: facts.plan.userTurnsLeftOut },
    turnsEndedAfterTools: facts.turnsEndedAfterTools,
    cost: facts.cost,
    ...(facts.summarizerCost === undefined ? {} : { summarizerCost: facts.summarizerCost }),
  };
}

/** An incident opens at a session's first overflow and closes when the cascade recovered or gave up; overflows in between belong to it. */
export function countIncidents(events: readonly ReplayEvent[]): number {
  const open = new Set<string>();
  let incidents = 0;
  for (const event of events) {
    if (event.kind === 'overflow' && !open.has(event.sessionId)) {
      open.add(event.sessionId);
      incidents++;
    }
    if (event.kind === 'recovery' || event.kind === 'recovery-failed') open.delete(event.sessionId);
  }
  return incidents;
}

function monitorThresholds(config: CtxhostConfig): { warnAt?: number; criticalAt?: number } {
  if (config.disabledHooks.includes('context-window-monitor')) return {};
  const section = MonitorConfigSchema.parse(config.hooks['context-window-monitor'] ?? {});
  return { warnAt: section.warn_at, criticalAt: section.critical_at };
}

function totalCost(requests: readonly { model: string; usage: Usage }[], overrides: ModelOverrides): ReplayCost {
  const byModel = priceByModel(requests, overrides);
  const reports = byModel.filter((cost): cost is CostReport & { priced: true } => cost.priced);
  const sum = (pick: (report: CostReport) => number) => reports.reduce((total, report) => total + pick(report), 0);
  const tokens = { uncachedInput: 0, cacheWrite5m: 0, cacheWrite1h: 0, cacheRead: 0, output: 0, prompt: 0 };
  for (const cost of byModel)
    for (const key of Object.keys(tokens) as (keyof typeof tokens)[]) tokens[key] += cost.tokens[key];
  return {
    requests: byModel.reduce((total, cost) => total + cost.requests, 0),
    tokens,
    dollars: sum((report) => report.dollars.total),
    withoutCaching: sum((report) => report.withoutCaching),
    dollarsSaved: sum((report) => report.dollarsSaved),
    cacheHitRatio: tokens.prompt === 0 ? 0 : tokens.cacheRead / tokens.prompt,
    byModel,
  };
}

/** The model most of the transcript's assistant turns name, or undefined when none does. */
export function mostUsedModel(messages: readonly Message[]): string | undefined {
  const counts = new Map<string, number>();
  for (const message of messages) {
    const model = message.meta?.model;
    if (message.role === 'assistant' && typeof model === 'string') counts.set(model, (counts.get(model) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** Each recorded request's output tokens by its reply's message index (several requests on one reply add up). */
function recordedOutputTokens(usage: readonly TranscriptUsage[]): Map<number, number> {
  const byReply = new Map<number, number>();
  for (const { replyIndex, usage: reported } of usage)
    byReply.set(replyIndex, (byReply.get(replyIndex) ?? 0) + reported.outputTokens);
  return byReply;
}

function prefixFor(options: ReplayOptions, plan: ReplayPlan, sidechain: boolean): ReconstructedPrefix | undefined {
  if (options.usage === undefined || options.reconstructPrefix === false) return undefined;
  return reconstructPrefix({
    messages: options.messages,
    usage: options.usage,
    system: plan.system,
    tools: plan.tools,
    sidechain,
    maxTokens: options.contextLimit ?? options.window,
  });
}

function withoutText({ system: _system, warmSplit: _split, ...report }: ReconstructedPrefix): ReconstructedReport {
  return report;
}

/**
 * For `warmStart`: the system blocks of each thread kind whose recording started warm, and the
 * simulator's `warmCache`, which says each such head was cached (through its first block) the
 * first time a request sends it unchanged.
 */
function warmStart(prefixes: { main?: ReconstructedPrefix | undefined; subagents?: ReconstructedPrefix | undefined }): {
  main?: string[];
  subagents?: string[];
  cache: WarmCache;
} {
  const heads = new Map<string, number>();
  const blocks = (prefix: ReconstructedPrefix | undefined): string[] | undefined => {
    if (prefix === undefined || prefix.warmTokens === 0) return undefined;
    heads.set(prefix.warmSplit[0]!, prefix.warmTokens);
    return prefix.warmSplit;
  };
  const main = blocks(prefixes.main);
  const subagents = blocks(prefixes.subagents);
  const cache: WarmCache = (request) => {
    const first = Array.isArray(request.system) ? request.system[0]?.text : request.system;
    const tokens = first === undefined ? undefined : heads.get(first);
    if (tokens === undefined) return 0;
    // Warm once: from then on the cache holds what the replay's own requests wrote.
    heads.delete(first!);
    return tokens;
  };
  return { ...(main === undefined ? {} : { main }), ...(subagents === undefined ? {} : { subagents }), cache };
}
