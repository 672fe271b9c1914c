import Anthropic from '@anthropic-ai/sdk';
import { startSimulator, type Simulator } from '@ctxhost/simulator';
import type { Transcript } from '@ctxhost/transcripts';
import {
  createAnthropicSummarizer,
  createTokenCounter,
  deriveProbes,
  missedProbes,
  PROBE_KINDS,
  promptTokens,
  toAnthropic,
  type CtxhostConfig,
  type Message,
  type Probe,
  type ProbeKind,
  type Usage,
} from 'ctxhost';
import { compactMessages } from '../compact-messages.js';
import { CLI_ERROR_CODES, CliError } from '../errors.js';
import { priceRequests } from '../pricing.js';
import { buildReplayPlan } from '../replay/replay-plan.js';
import { mostUsedModel } from '../replay/run-replay.js';
import { cutPoints, type EvalCut } from './cut-points.js';
import { evalEngineFactories, type EvalEngineSpec } from './eval-engines.js';
import { probeQuestionMessage, probesAnswered } from './probe-questions.js';
import { recordingClient } from './recording-client.js';
import { spreadOf, type Spread } from './spread.js';

export interface EvalTranscript {
  /** How the transcript is named in the output (its path as given). */
  label: string;
  transcript: Transcript;
}

export interface EvalOptions {
  transcripts: readonly EvalTranscript[];
  engines: readonly EvalEngineSpec[];
  /** Cuts per transcript (fewer when it has fewer user turns). */
  cuts: number;
  /** Times each cut is compacted and asked, per engine. */
  replicates: number;
  config: CtxhostConfig;
  /** Sends and prices every call as this model; default the transcript's most used one. */
  model?: string;
  /** The window each cut is compacted for; default the one that puts the cut at `compression.threshold`. */
  window?: number;
  /** The real API (summarizer and answers); absent: the simulator answers, offline. */
  client?: Anthropic;
  /** Where plugin folders are looked up. */
  cwd: string;
  projectPlugins?: boolean;
  onPluginLoad?: (info: { name: string; file: string }) => void;
  /** After each compaction asked: done so far, and how many in all. */
  onProgress?: (done: number, total: number) => void;
}

/** Per kind of fact: probes, how many the compacted context names, how many the model's answer names. */
export type KindCounts = Partial<Record<ProbeKind, { probes: number; inView: number; answered: number }>>;

/** One transcript cut, compacted by one engine, asked once. */
export interface EvalSample {
  transcript: string;
  /** Which cut, from 1, and the transcript message index it comes before. */
  cut: number;
  at: number;
  replicate: number;
  engine: string;
  /** False when the engine left the context as it was (nothing to gain, or an engine that never compacts): the model saw it whole. */
  compacted: boolean;
  note?: string;
  window: number;
  /** The host's estimates around the compaction. */
  tokensBefore: number;
  tokensAfter: number;
  /** The prompt the probe question went in, as the API reported it: the compacted context plus the question. */
  promptTokens: number;
  probes: number;
  /** Probes whose fact what the model sees names (no model involved). */
  inView: number;
  /** Probes whose fact the model's answer names. */
  answered: number;
  byKind: KindCounts;
  /** The host's own fidelity score of the compaction (against the span it dropped). */
  fidelityScore?: number;
  summarizerCalls: number;
  summarizerTokens: number;
  /** The summarizer's calls and the probe call, each at its model's price; absent when a model has no price. */
  dollars?: number;
  answer: string;
}

export interface EvalEngineSummary {
  engine: string;
  samples: number;
  compacted: number;
  /** Share of the probes the model's answer named, per sample. */
  recall: Spread;
  /** Share of the probes the compacted context named, per sample. */
  inView: Spread;
  promptTokens: Spread;
  summarizerCalls: Spread;
  /** Absent when some call could not be priced. */
  dollars?: Spread;
  byKind: KindCounts;
}

export interface EvalResult {
  /** True when a real model answered; false: the simulator did, and `recall` is not a quality figure. */
  live: boolean;
  /** The model every call was sent and priced as (`--model`); absent: each transcript's own (see `transcripts`). */
  model?: string;
  /** The summarizers used, by name (`anthropic:<model>`). */
  summarizers: string[];
  cuts: number;
  replicates: number;
  transcripts: { label: string; format: string; messages: number; model: string; cutAt: number[] }[];
  engines: EvalEngineSummary[];
  samples: EvalSample[];
}

const DEFAULT_MODEL = 'claude-sonnet-4-6';
const ANSWER_MAX_TOKENS = 1024;
/** What the offline simulator accepts: every cut's context fits (eval sizes the window, not the API). */
const SIMULATOR_LIMIT = 2_000_000;
const ANSWER_KEPT_CHARS = 4000;

/**
 * `ctxhost eval`: each transcript cut at `cuts` user turns; each cut compacted by every
 * engine through a default host (the same `runCompaction` the host runs, fidelity
 * check included unless the variant turns it off), then the model is asked the
 * probe questions from the compacted context; the answer is scored against the
 * probes of everything before the cut (the same probes for every engine).
 */
export async function runEval(options: EvalOptions): Promise<EvalResult> {
  const plans = options.transcripts.map((entry) => ({ entry, cuts: cutPoints(entry.transcript, options.cuts) }));
  const total = plans.reduce((sum, plan) => sum + plan.cuts.length, 0) * options.replicates * options.engines.length;
  const simulator =
    options.client === undefined
      ? await startSimulator({ contextLimit: SIMULATOR_LIMIT, acceptAnyModel: true })
      : undefined;
  const client = options.client ?? offlineClient(simulator!);
  const samples: EvalSample[] = [];
  const summarizers = new Set<string>();
  try {
    for (const { entry, cuts } of plans) {
      const model = modelOf(entry, options);
      for (const [cutIndex, cut] of cuts.entries()) {
        const probes = deriveProbes(cut.messages);
        const window = options.window ?? windowFor(cut, options.config);
        for (let replicate = 1; replicate <= options.replicates; replicate++)
          for (const spec of options.engines) {
            const sample = await evalOnce({
              options,
              client,
              entry,
              cut,
              cutIndex,
              replicate,
              spec,
              probes,
              window,
              model,
            });
            if (sample.summarizerName !== undefined) summarizers.add(sample.summarizerName);
            samples.push(sample.sample);
            options.onProgress?.(samples.length, total);
          }
      }
    }
  } finally {
    await simulator?.close();
  }
  return {
    live: options.client !== undefined,
    ...(options.model === undefined ? {} : { model: options.model }),
    summarizers: [...summarizers],
    cuts: options.cuts,
    replicates: options.replicates,
    transcripts: plans.map(({ entry, cuts }) => ({
      label: entry.label,
      format: entry.transcript.format,
      messages: entry.transcript.messages.length,
      model: modelOf(entry, options),
      cutAt: cuts.map((cut) => cut.at),
    })),
    engines: options.engines.map((spec) => summarizeEngine(spec.label, samples)),
    samples,
  };
}

function modelOf(entry: EvalTranscript, options: EvalOptions): string {
  return options.model ?? mostUsedModel(entry.transcript.messages) ?? DEFAULT_MODEL;
}

interface EvalStep {
  options: EvalOptions;
  client: Anthropic;
  entry: EvalTranscript;
  cut: EvalCut;
  cutIndex: number;
  replicate: number;
  spec: EvalEngineSpec;
  probes: Probe[];
  window: number;
  model: string;
}

async function evalOnce(step: EvalStep): Promise<{ sample: EvalSample; summarizerName: string | undefined }> {
  const { options, cut, spec, probes, window, model } = step;
  const config = spec.configure(options.config);
  const summaryModel = config.auxiliary.compression.model ?? model;
  const summarizerUsage: Usage[] = [];
  const summarizer = createAnthropicSummarizer(
    recordingClient(step.client, (usage) => summarizerUsage.push(usage)),
    { model: summaryModel },
  );
  const compaction = await compactOrKeep(cut.messages, {
    config,
    cwd: options.cwd,
    window,
    engine: spec.engine,
    engines: evalEngineFactories(),
    summarizer,
    ...(options.projectPlugins === undefined ? {} : { projectPlugins: options.projectPlugins }),
    ...(options.onPluginLoad === undefined ? {} : { onPluginLoad: options.onPluginLoad }),
  });
  const seen = compaction.messages;
  const missed = new Set(missedProbes(probes, seen));
  const question = probeQuestionMessage(probes, `ctxhost-eval-${step.cutIndex + 1}`);
  const request = toAnthropic([...seen, question]);
  let answerUsage: Usage | undefined;
  const reply = await recordingClient(step.client, (usage) => (answerUsage = usage)).messages.create({
    model,
    max_tokens: ANSWER_MAX_TOKENS,
    ...(request.system === undefined ? {} : { system: request.system }),
    // core's wire types are the API's, with wider string unions (a media type is any string).
    messages: request.messages as unknown as Anthropic.MessageParam[],
    ...toolsFor(seen),
  });
  const answer = reply.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
  const found = new Set(probesAnswered(probes, answer));
  const byKind: KindCounts = {};
  for (const probe of probes) {
    const entry = (byKind[probe.kind] ??= { probes: 0, inView: 0, answered: 0 });
    entry.probes++;
    if (!missed.has(probe)) entry.inView++;
    if (found.has(probe)) entry.answered++;
  }
  const summaryCost = priceRequests(summarizerUsage, summaryModel, config.models);
  const answerCost = priceRequests(answerUsage === undefined ? [] : [answerUsage], model, config.models);
  const sample: EvalSample = {
    transcript: step.entry.label,
    cut: step.cutIndex + 1,
    at: cut.at,
    replicate: step.replicate,
    engine: spec.label,
    compacted: compaction.compacted,
    ...(compaction.note === undefined ? {} : { note: compaction.note }),
    window,
    tokensBefore: compaction.tokensBefore,
    tokensAfter: compaction.tokensAfter,
    promptTokens: answerUsage === undefined ? 0 : promptTokens(answerUsage),
    probes: probes.length,
    inView: probes.length - missed.size,
    answered: found.size,
    byKind,
    ...(compaction.fidelityScore === undefined ? {} : { fidelityScore: compaction.fidelityScore }),
    summarizerCalls: summarizerUsage.length,
    summarizerTokens: summarizerUsage.reduce((sum, usage) => sum + promptTokens(usage) + usage.outputTokens, 0),
    ...(summaryCost.priced && answerCost.priced
      ? { dollars: summaryCost.dollars.total + answerCost.dollars.total }
      : {}),
    answer: answer.slice(0, ANSWER_KEPT_CHARS),
  };
  return { sample, summarizerName: summarizerUsage.length > 0 ? summarizer.name : undefined };
}

interface Compaction {
  compacted: boolean;
  messages: Message[];
  tokensBefore: number;
  tokensAfter: number;
  fidelityScore?: number;
  note?: string;
}

/** The engine's compaction through a default host; when it had nothing to gain, the context as it was. */
async function compactOrKeep(messages: Message[], options: Parameters<typeof compactMessages>[1]): Promise<Compaction> {
  try {
    const outcome = await compactMessages(messages, options);
    const { report } = outcome;
    return {
      compacted: report.tokensAfter < report.tokensBefore || report.messagesAfter !== report.messagesBefore,
      messages: outcome.messages,
      tokensBefore: outcome.report.tokensBefore,
      tokensAfter: outcome.report.tokensAfter,
      ...(outcome.report.fidelity === undefined ? {} : { fidelityScore: outcome.report.fidelity.score }),
    };
  } catch (error) {
    if (!(error instanceof CliError) || error.code !== CLI_ERROR_CODES.compactionFailed) throw error;
    const tokens = createTokenCounter().countAll(messages);
    return { compacted: false, messages, tokensBefore: tokens, tokensAfter: tokens, note: error.message };
  }
}

/** The window that puts the cut at the engine's threshold: where the host would compact it. */
function windowFor(cut: EvalCut, config: CtxhostConfig): number {
  return Math.ceil(createTokenCounter().countAll(cut.messages) / config.compression.threshold);
}

/** Tool definitions for the tools the context calls (the API needs them), with tool use turned off for the answer. */
function toolsFor(
  messages: readonly Message[],
): Pick<Anthropic.MessageCreateParamsNonStreaming, 'tools' | 'tool_choice'> {
  const tools = buildReplayPlan(messages).tools;
  if (tools.length === 0) return {};
  return {
    tools: tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.inputSchema,
    })),
    tool_choice: { type: 'none' },
  };
}

function offlineClient(simulator: Simulator): Anthropic {
  return new Anthropic({ apiKey: 'eval', baseURL: simulator.url, maxRetries: 0 });
}

function summarizeEngine(engine: string, all: readonly EvalSample[]): EvalEngineSummary {
  const samples = all.filter((sample) => sample.engine === engine);
  const share = (part: number, whole: number) => (whole === 0 ? 1 : part / whole);
  const byKind: KindCounts = {};
  for (const sample of samples)
    for (const kind of PROBE_KINDS) {
      const counts = sample.byKind[kind];
      if (counts === undefined) continue;
      const entry = (byKind[kind] ??= { probes: 0, inView: 0, answered: 0 });
      entry.probes += counts.probes;
      entry.inView += counts.inView;
      entry.answered += counts.answered;
    }
  const dollars = samples.map((sample) => sample.dollars);
  return {
    engine,
    samples: samples.length,
    compacted: samples.filter((sample) => sample.compacted).length,
    recall: spreadOf(samples.map((sample) => share(sample.answered, sample.probes))),
    inView: spreadOf(samples.map((sample) => share(sample.inView, sample.probes))),
    promptTokens: spreadOf(samples.map((sample) => sample.promptTokens)),
    summarizerCalls: spreadOf(samples.map((sample) => sample.summarizerCalls)),
    ...(dollars.every((value) => value !== undefined) ? { dollars: spreadOf(dollars) } : {}),
    byKind,
  };
}
