/**
 * Native compaction against the client engine, measured: long generated sessions (hundreds of
 * requests; seed 1 tuning, seed 9001 held out) replayed request by request against the simulator at
 * 200k and 64k windows (the simulator refuses a prompt over the window), each with prompt caching:
 *   client                     the compressor (ctxhost's client engine), Anthropic
 *   anthropic-threshold        compact_20260112 at max(50k, 3/4 of the window); the compressor as fallback (withServerFirst)
 *   anthropic-on-demand        on-demand compaction of the span ctxhost chooses (from 60% of the window, the last 1/8 kept)
 *   anthropic-context-editing  clear_tool_uses from half the window, keeping 3, clearing at least 1/16; fallback as above
 *   native+fallback            on-demand with a model the provider refuses: the compressor takes every pass
 *   openai-client              the compressor, OpenAI Responses
 *   openai-inline              Responses inline compaction at 3/4 of the window; fallback as above
 *   openai-standalone          responses/compact of the span ctxhost chooses (as on-demand)
 * Dollars are input dollars plus every compaction pass (on-demand and standalone passes, the threshold
 * pass from usage.iterations, the inline pass the simulator bills in the response's usage); the
 * scripted replies' output is the same in every run and left out. Fidelity: the compaction-fidelity
 * probes (files, commands, errors, constraints, the open ask, identifiers) of every message the last
 * request no longer carries verbatim, found in what the model sees on it (a provider compaction read as
 * its summary; the simulator's summary is a template, not a model). Context editing clears results on
 * the server, which the request does not show: its fidelity is not measured.
 * Run alone: npx tsx --conditions=@ctxhost/source bench/native-mechanisms.ts
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { pathToFileURL } from 'node:url';
import { createAnthropicCompactor, createAnthropicModel } from '@ctxhost/anthropic';
import { compressorEngineFactory } from '@ctxhost/compressor';
import {
  createHost,
  deriveProbes,
  DEFAULT_CONFIG,
  missedProbes,
  nativeCompactionOf,
  type ContextEngine,
  type Message,
  type ModelClient,
  type ModelRequest,
  type Part,
  type Plugin,
  type Usage,
} from '@ctxhost/core';
import {
  createNativeCompactionEngine,
  createNativeCompactionPlugin,
  readNativeReport,
  withServerFirst,
  type NativeCompactionConfigInput,
} from '@ctxhost/native-compaction';
import { createOpenAICompactor, createOpenAIResponsesModel } from '@ctxhost/openai';
import { createPromptCachingPlugin, sessionCost } from '@ctxhost/prompt-caching';
import { openSummary, startSimulator } from '@ctxhost/simulator';
import { generateLongSession, type LongSessionOptions } from '../test/support/long-session.js';
import type { BenchSize } from './bench.js';

export interface NativeMechanismRow {
  session: string;
  window: string;
  mode: Mode;
  requests: number;
  /** Input dollars plus compaction passes; the share against the client engine on the same vendor. */
  dollars: string;
  passes: number;
  cacheRead: string;
  peakPrompt: number;
  answered: string;
  fidelity: string;
}

export type Mode =
  | 'client'
  | 'anthropic-threshold'
  | 'anthropic-on-demand'
  | 'anthropic-context-editing'
  | 'native+fallback'
  | 'openai-client'
  | 'openai-inline'
  | 'openai-standalone';

const MODES: readonly Mode[] = [
  'client',
  'anthropic-threshold',
  'anthropic-on-demand',
  'anthropic-context-editing',
  'native+fallback',
  'openai-client',
  'openai-inline',
  'openai-standalone',
];
const ANTHROPIC_MODEL = 'claude-sonnet-4-0';
const OPENAI_MODEL = 'gpt-5';
const WINDOWS = [200_000, 64_000];
const SESSIONS: { options: LongSessionOptions; heldOut: boolean }[] = [
  { options: { seed: 1 }, heldOut: false },
  { options: { seed: 9001 }, heldOut: true },
];

interface Run {
  usages: Usage[];
  passDollars: number;
  passes: number;
  answered: number;
  /** What the last request sent. */
  last: readonly Message[];
}

const isOpenAI = (mode: Mode) => mode.startsWith('openai');
const modelOf = (mode: Mode) => (isOpenAI(mode) ? OPENAI_MODEL : ANTHROPIC_MODEL);

/** The native config a mode turns on (the plugin's request fields), or undefined. */
function nativeConfig(mode: Mode, window: number): NativeCompactionConfigInput | undefined {
  if (mode === 'anthropic-threshold')
    return { anthropic: { compaction: { enabled: true, trigger_tokens: Math.max(50_000, (window * 3) / 4) } } };
  if (mode === 'anthropic-context-editing')
    return {
      anthropic: {
        clear_tool_uses: {
          enabled: true,
          trigger_tokens: window / 2,
          keep_tool_uses: 3,
          clear_at_least_tokens: window / 16,
        },
      },
    };
  if (mode === 'openai-inline') return { openai: { inline: { enabled: true, compact_threshold: (window * 3) / 4 } } };
  return undefined;
}

function engineFor(mode: Mode, window: number, anthropic: Anthropic, openai: OpenAI): ContextEngine {
  const compressor = compressorEngineFactory({ config: { ...DEFAULT_CONFIG, model: { contextLength: window } } });
  if (nativeConfig(mode, window) !== undefined) return withServerFirst(compressor);
  const span = { fallback: compressor, trigger: 0.6, keepTailTokens: window / 8 };
  if (mode === 'anthropic-on-demand' || mode === 'native+fallback')
    return createNativeCompactionEngine({
      ...span,
      compactor: createAnthropicCompactor(anthropic, {
        model: mode === 'native+fallback' ? 'claude-no-such-model' : ANTHROPIC_MODEL,
      }),
    });
  if (mode === 'openai-standalone')
    return createNativeCompactionEngine({
      ...span,
      compactor: createOpenAICompactor(openai, { model: OPENAI_MODEL }),
      readableCopy: 'extractive',
    });
  return compressor;
}

async function replay(prefixes: readonly Message[][], mode: Mode, window: number): Promise<Run> {
  const model = modelOf(mode);
  const sim = await startSimulator({ contextLimit: window, models: { [OPENAI_MODEL]: { contextLimit: window } } });
  const anthropic = new Anthropic({ apiKey: 'bench', baseURL: sim.url, maxRetries: 0 });
  const openai = new OpenAI({ apiKey: 'bench', baseURL: `${sim.url}/v1`, maxRetries: 0 });
  const client: ModelClient = isOpenAI(mode)
    ? createOpenAIResponsesModel(openai, { model, contextWindow: window })
    : createAnthropicModel(anthropic, { model, contextWindow: window });
  const config = nativeConfig(mode, window);
  const plugins: Plugin[] = [
    createPromptCachingPlugin(),
    ...(config === undefined ? [] : [createNativeCompactionPlugin({ config })]),
  ];
  const host = createHost({
    config: { model: { contextLength: window } },
    engine: engineFor(mode, window, anthropic, openai),
    plugins,
  });
  const run: Run = { usages: [], passDollars: 0, passes: 0, answered: 0, last: [] };
  const billed = new Set<string>();
  const session = await host.session('replay');
  host.hooks.compactionCompleted.tapPromise('native-mechanisms', async () => {
    for (const message of session.messages()) {
      const usage = (message.meta?.['nativeCompaction'] as { usage?: Usage } | undefined)?.usage;
      if (usage === undefined || billed.has(message.id)) continue;
      billed.add(message.id);
      run.passes++;
      run.passDollars += sessionCost([usage], model).dollars.total;
    }
  });
  // A compaction the server returned rides on the recorded reply it came with, as a client sends it back.
  const compactionOn = new Map<string, Part[]>();
  const withCompactions = (message: Message) =>
    compactionOn.has(message.id)
      ? { ...message, parts: [...compactionOn.get(message.id)!, ...message.parts] }
      : message;
  let appended = 0;
  for (const [index, prefix] of prefixes.entries()) {
    for (const message of prefix.slice(appended)) await session.append(withCompactions(message));
    appended = prefix.length;
    const request: ModelRequest = await host.hooks.beforeRequest.promise(
      { sessionId: 'replay', model, messages: session.messages(), maxTokens: 1000 },
      { sessionId: 'replay', contextWindow: window },
    );
    run.last = request.messages;
    try {
      const response = await client.create(request);
      run.answered++;
      run.usages.push(response.usage);
      await session.reportUsage(response.usage);
      const pass = readNativeReport(response.message)?.compaction;
      if (pass !== undefined) {
        run.passes++;
        run.passDollars += sessionCost(
          [
            {
              inputTokens: pass.inputTokens,
              outputTokens: pass.outputTokens,
              cacheCreationInputTokens: 0,
              cacheReadInputTokens: 0,
            },
          ],
          model,
        ).dollars.total;
      }
      const native = response.message.parts.filter((part) => nativeCompactionOf(part) !== undefined);
      if (isOpenAI(mode) && native.length > 0) run.passes++;
      const reply = prefixes[index + 1]?.[prefix.length];
      if (native.length > 0 && reply !== undefined) compactionOn.set(reply.id, native);
    } catch {
      // Refused (over the window): a turn not answered.
    }
  }
  await sim.close();
  await host.dispose();
  return run;
}

/**
 * What the model reads of a request: from the latest provider compaction on (the provider drops what
 * it summarized), that compaction as its summary, system messages kept.
 */
function seenByModel(messages: readonly Message[]): Message[] {
  const at = messages.findLastIndex((message) => message.parts.some((part) => nativeCompactionOf(part) !== undefined));
  if (at < 0) return [...messages];
  const compacted = messages[at]!;
  const summary: Message = {
    ...compacted,
    parts: compacted.parts.map((part): Part => {
      const native = nativeCompactionOf(part);
      if (native === undefined) return part;
      const sealed = native.fields['encrypted_content'];
      return { id: part.id, type: 'text', text: openSummary(sealed) ?? native.readable };
    }),
  };
  return [...messages.slice(0, at).filter((message) => message.role === 'system'), summary, ...messages.slice(at + 1)];
}

/** Probes of every message the last request no longer carries, found in what the model sees. */
function fidelity(all: readonly Message[], last: readonly Message[]): { found: number; probes: number } {
  const seen = seenByModel(last);
  const kept = new Set(seen.map((message) => message.id));
  const probes = deriveProbes(all.filter((message) => !kept.has(message.id)));
  return { found: probes.length - missedProbes(probes, seen).length, probes: probes.length };
}

function promptOf(usage: Usage): number {
  return usage.inputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens;
}

/** Each model request of a session as the prefix it sent (one before each assistant turn). */
function requestPrefixes(messages: readonly Message[]): Message[][] {
  return messages.flatMap((message, index) =>
    message.role === 'assistant' && index > 0 ? [messages.slice(0, index)] : [],
  );
}

/** `smallest`: one session of 8 user requests at a 16k window, every mode. */
export async function runNativeMechanisms(size: BenchSize = 'full'): Promise<NativeMechanismRow[]> {
  const rows: NativeMechanismRow[] = [];
  const sessions = size === 'smallest' ? SESSIONS.slice(0, 1) : SESSIONS;
  for (const { options, heldOut } of sessions) {
    const generated = await generateLongSession(size === 'smallest' ? { ...options, requests: 8 } : options);
    const prefixes = requestPrefixes(generated.messages);
    const all = prefixes.at(-1) ?? [];
    for (const window of size === 'smallest' ? [16_000] : WINDOWS) {
      const runs = new Map<Mode, Run>();
      for (const mode of MODES) runs.set(mode, await replay(prefixes, mode, window));
      const dollarsOf = (run: Run, mode: Mode) => {
        const cost = sessionCost(run.usages, modelOf(mode));
        return cost.dollars.total - cost.dollars.output + run.passDollars;
      };
      for (const mode of MODES) {
        const run = runs.get(mode)!;
        const base = isOpenAI(mode) ? 'openai-client' : 'client';
        const dollars = dollarsOf(run, mode);
        const against = dollarsOf(runs.get(base)!, base);
        const prompt = run.usages.reduce((sum, usage) => sum + promptOf(usage), 0);
        const read = run.usages.reduce((sum, usage) => sum + usage.cacheReadInputTokens, 0);
        const probed = fidelity(all, run.last);
        rows.push({
          session: `seed ${options.seed}${heldOut ? ' (held out)' : ''}`,
          window: `${window / 1000}k`,
          mode,
          requests: prefixes.length,
          dollars: `$${dollars.toFixed(3)}${mode === base ? '' : ` (${dollars >= against ? '+' : ''}${Math.round((dollars / against - 1) * 100)}%)`}`,
          passes: run.passes,
          cacheRead: prompt === 0 ? '—' : `${Math.round((read / prompt) * 100)}%`,
          peakPrompt: Math.max(0, ...run.usages.map(promptOf)),
          answered: `${run.answered}/${prefixes.length}`,
          fidelity:
            mode === 'anthropic-context-editing' || probed.probes === 0
              ? '—'
              : `${Math.round((probed.found / probed.probes) * 100)}% of ${probed.probes}`,
        });
      }
    }
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await runNativeMechanisms(process.argv.includes('--smallest') ? 'smallest' : 'full'));
}
