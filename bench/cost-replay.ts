/**
 * Cost replay: each agent session of the corpus, its requests replayed in
 * order against the simulator (which prices prefixes with its own prompt
 * cache and models server-side context management) at a 64k window. Input
 * dollars for five configurations:
 *   none          no cache breakpoints
 *   system_and_3  Hermes's breakpoints on the transcript as it was
 *   client        system_and_3 + the host's compaction (compressor at 64k)
 *   server_edit   system_and_3 + context editing (clear_tool_uses) + client fallback
 *   server_compact system_and_3 + server compaction (compact_20260112) + client fallback
 *   native_on_demand  Anthropic on-demand compaction of the span ctxhost chooses (from 60% of the
 *                     window, the last 1/8 kept), its pass billed; the compressor as fallback
 *   native_fallback   the same with a model the provider refuses: the compressor takes every pass
 * Claude Code sessions replay the requests their usage records mark; OpenHands
 * and SWE-agent trajectories (no usage records) one request before each
 * assistant turn. A server compaction's own pass (usage.iterations) is priced
 * as uncached input.
 * Run alone: npx tsx --conditions=@ctxhost/source bench/cost-replay.ts
 */
import Anthropic from '@anthropic-ai/sdk';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createAnthropicCompactor, createAnthropicModel } from '@ctxhost/anthropic';
import {
  createNativeCompactionEngine,
  createNativeCompactionPlugin,
  isCompactionPart,
  readNativeReport,
  withServerFirst,
  type NativeCompactionPluginOptions,
} from '@ctxhost/native-compaction';
import { compressorEngineFactory } from '@ctxhost/compressor';
import {
  createHost,
  DEFAULT_CONFIG,
  type Message,
  type ModelRequest,
  type Part,
  type Plugin,
  type Usage,
} from '@ctxhost/core';
import {
  applyCacheBreakpoints,
  createPromptCachingPlugin,
  requireModelPricing,
  sessionCost,
} from '@ctxhost/prompt-caching';
import { startSimulator } from '@ctxhost/simulator';
import { readTranscript } from '@ctxhost/transcripts';
import type { BenchSize } from './bench.js';

export interface CostRow {
  window: string;
  session: string;
  requests: number;
  lastPromptTokens: number;
  noCaching: string;
  /** Perfect caching of the transcript as it is: every earlier prefix read, only each request's new tokens written. */
  ceiling: string;
  systemAnd3: string;
  client: string;
  /** The largest prompt the client-compaction run sent (this replay does not enforce the window, so it can pass it). */
  clientPeakPrompt: number | 'n/a';
  serverEdit: string;
  serverCompact: string;
  serverActed: string;
  /** Anthropic on-demand compaction of the span ctxhost chooses (the pass billed), the compressor as fallback. */
  nativeOnDemand: string;
  /** The same with a model the provider refuses: every pass falls back to the compressor. */
  nativeFallback: string;
  nativePeakPrompt: number | 'n/a';
  /** On-demand compaction passes billed. */
  nativePasses: number;
}

const CORPUS = join(import.meta.dirname, '..', 'test', 'fixtures', 'corpus');
const SOURCES = ['claude-code', 'openhands', 'swe-agent'];
/** Claude Sonnet 4 by the alias the API serves (`claude-sonnet-4` alone is a 404 there, and in the simulator). */
const MODEL = 'claude-sonnet-4-0';
/** The window; a 16k run of the sessions that pass 16k shows what the strategies do once they trigger. */
const WINDOW = 64_000;
const SMALL_WINDOW = 16_000;
/** Context editing as a user would set it for a window: from the client's own threshold (0.5), keeping 3, clearing at least 1/16 of the window so each clearing pays for the cache it breaks. */
const serverEdit = (window: number): NativeCompactionPluginOptions['config'] => ({
  anthropic: {
    clear_tool_uses: {
      enabled: true,
      trigger_tokens: window / 2,
      keep_tool_uses: 3,
      clear_at_least_tokens: window / 16,
    },
  },
});
/** Server compaction at its lowest allowed trigger (50,000): the closest it gets to a 64k window; it cannot serve a 16k one. */
const SERVER_COMPACT: NativeCompactionPluginOptions['config'] = {
  anthropic: { compaction: { enabled: true, trigger_tokens: 50_000 } },
};

type Mode =
  'none' | 'system_and_3' | 'client' | 'server_edit' | 'server_compact' | 'native_on_demand' | 'native_fallback';

interface Replayed {
  usages: Usage[];
  /** Dollars of server compaction passes (their tokens are not in the top-level usage). */
  compactionDollars: number;
  /** Applied edits plus compactions the server reported. */
  serverActions: number;
}

function hostPlugins(mode: Mode, window: number): Plugin[] {
  const caching = createPromptCachingPlugin();
  if (mode === 'server_edit')
    return [caching, createNativeCompactionPlugin({ config: serverEdit(window), provider: 'anthropic' })];
  if (mode === 'server_compact')
    return [caching, createNativeCompactionPlugin({ config: SERVER_COMPACT, provider: 'anthropic' })];
  return [caching];
}

async function replay(prefixes: Message[][], mode: Mode, window = WINDOW): Promise<Replayed> {
  const sim = await startSimulator({ contextLimit: 1_000_000 });
  const result: Replayed = { usages: [], compactionDollars: 0, serverActions: 0 };
  const model = createAnthropicModel(new Anthropic({ apiKey: 'bench', baseURL: sim.url, maxRetries: 0 }), {
    model: MODEL,
    contextWindow: window,
  });
  const serverFirst = mode === 'server_edit' || mode === 'server_compact';
  const native = mode === 'native_on_demand' || mode === 'native_fallback';
  const engine = compressorEngineFactory({ config: { ...DEFAULT_CONFIG, model: { contextLength: window } } });
  const client = new Anthropic({ apiKey: 'bench', baseURL: sim.url, maxRetries: 0 });
  const host = createHost({
    config: { model: { contextLength: window } },
    engine: native
      ? createNativeCompactionEngine({
          // native_fallback: a model the provider refuses, so every pass falls back to the compressor.
          compactor: createAnthropicCompactor(client, {
            model: mode === 'native_on_demand' ? MODEL : 'claude-no-such-model',
          }),
          fallback: engine,
          trigger: 0.6,
          keepTailTokens: window / 8,
        })
      : serverFirst
        ? withServerFirst(engine)
        : engine,
    plugins: hostPlugins(mode, window),
  });
  const billed = new Set<string>();
  host.hooks.compactionCompleted.tapPromise('cost-replay', async () => {
    for (const message of (await host.session('replay')).messages()) {
      const usage = (message.meta?.['nativeCompaction'] as { usage?: Usage } | undefined)?.usage;
      if (usage === undefined || billed.has(message.id)) continue;
      billed.add(message.id);
      result.serverActions++;
      result.compactionDollars += sessionCost([usage], MODEL).dollars.total;
    }
  });
  const session = await host.session('replay');
  // A compaction block the server returned rides on the transcript's reply it came with, as a client would send it back.
  const compactionOn = new Map<string, Part>();
  const withCompactions = (message: Message) =>
    compactionOn.has(message.id) ? { ...message, parts: [compactionOn.get(message.id)!, ...message.parts] } : message;
  const inputPrice = requireModelPricing(MODEL).inputPerMTok / 1e6;
  let appended = 0;
  for (const [index, prefix] of prefixes.entries()) {
    let request: ModelRequest = { sessionId: 'replay', model: MODEL, messages: prefix, maxTokens: 1000 };
    if (mode === 'system_and_3') request = { ...request, messages: applyCacheBreakpoints(prefix, { ttl: '5m' }) };
    if (mode === 'client' || serverFirst || native) {
      for (const message of prefix.slice(appended)) await session.append(withCompactions(message));
      appended = prefix.length;
      request = await host.hooks.beforeRequest.promise(
        { ...request, messages: session.messages() },
        { sessionId: 'replay', contextWindow: window },
      );
    }
    const response = await model.create(request);
    result.usages.push(response.usage);
    if (mode === 'client' || serverFirst || native) await session.reportUsage(response.usage);
    const report = readNativeReport(response.message);
    if (report !== undefined) {
      result.serverActions += report.appliedEdits.length + (report.compaction === undefined ? 0 : 1);
      result.compactionDollars +=
        (report.compaction?.inputTokens ?? 0) * inputPrice +
        (report.compaction?.outputTokens ?? 0) * (requireModelPricing(MODEL).outputPerMTok / 1e6);
    }
    const compaction = response.message.parts.find(isCompactionPart);
    const reply = prefixes[index + 1]?.[prefix.length];
    if (compaction !== undefined && reply !== undefined) compactionOn.set(reply.id, compaction);
  }
  await sim.close();
  await host.dispose();
  return result;
}

/** Each request of a transcript as the prefix it sent. */
async function requestPrefixes(file: string): Promise<Message[][]> {
  const { messages, usage } = await readTranscript(file);
  if (usage !== undefined && usage.length > 0)
    return usage
      .map((record) => messages.slice(0, record.messageIndex + 1))
      .filter((prefix) => prefix[0]?.role !== 'assistant');
  return messages
    .flatMap((message, index) => (message.role === 'assistant' && index > 0 ? [messages.slice(0, index)] : []))
    .filter((prefix) => prefix.some((message) => message.role === 'user'));
}

/** Smallest: the shortest Claude Code session in every mode, and its small-window row at a window it passes. */
export async function runCostReplay(size: BenchSize = 'full'): Promise<CostRow[]> {
  const rows: CostRow[] = [];
  const small: CostRow[] = [];
  const smallWindow = size === 'smallest' ? 2_000 : SMALL_WINDOW;
  for (const source of size === 'smallest' ? SOURCES.slice(0, 1) : SOURCES) {
    const files = readdirSync(join(CORPUS, source))
      .filter((file) => /\.(jsonl|json|traj)$/.test(file))
      .sort();
    for (const name of size === 'smallest' ? files.slice(0, 1) : files) {
      const prefixes = await requestPrefixes(join(CORPUS, source, name));
      const none = await replay(prefixes, 'none');
      const cached = await replay(prefixes, 'system_and_3');
      const session = `${source}/${name.slice(0, 24)}`;
      rows.push(
        row(session, WINDOW, prefixes, {
          none,
          system_and_3: cached,
          client: await replay(prefixes, 'client'),
          server_edit: await replay(prefixes, 'server_edit'),
          server_compact: await replay(prefixes, 'server_compact'),
          native_on_demand: await replay(prefixes, 'native_on_demand'),
          native_fallback: await replay(prefixes, 'native_fallback'),
        }),
      );
      if (promptOf(none.usages.at(-1)!) > smallWindow) {
        small.push(
          row(session, smallWindow, prefixes, {
            none,
            system_and_3: cached,
            client: await replay(prefixes, 'client', smallWindow),
            server_edit: await replay(prefixes, 'server_edit', smallWindow),
            native_on_demand: await replay(prefixes, 'native_on_demand', smallWindow),
            native_fallback: await replay(prefixes, 'native_fallback', smallWindow),
          }),
        );
      }
    }
  }
  return [...rows, ...small];
}

function row(
  session: string,
  window: number,
  prefixes: Message[][],
  runs: Partial<Record<Mode, Replayed>> & Pick<Record<Mode, Replayed>, 'none'>,
): CostRow {
  const input = (run: Replayed) => {
    const report = sessionCost(run.usages, MODEL);
    return report.dollars.total - report.dollars.output + run.compactionDollars;
  };
  const base = input(runs.none);
  const share = (dollars: number) => `$${dollars.toFixed(4)} (${Math.round((1 - dollars / base) * 100)}%)`;
  const cell = (mode: Mode) => (runs[mode] === undefined ? 'n/a' : share(input(runs[mode])));
  return {
    window: `${window / 1000}k`,
    session,
    requests: prefixes.length,
    lastPromptTokens: promptOf(runs.none.usages.at(-1)!),
    noCaching: `$${base.toFixed(4)}`,
    ceiling: share(ceilingDollars(runs.none.usages)),
    systemAnd3: cell('system_and_3'),
    client: cell('client'),
    clientPeakPrompt: runs.client === undefined ? 'n/a' : Math.max(...runs.client.usages.map(promptOf)),
    serverEdit: cell('server_edit'),
    serverCompact: cell('server_compact'),
    serverActed: `${runs.server_edit?.serverActions ?? 0} edits / ${runs.server_compact?.serverActions ?? 0} compactions`,
    nativeOnDemand: cell('native_on_demand'),
    nativeFallback: cell('native_fallback'),
    nativePeakPrompt:
      runs.native_on_demand === undefined ? 'n/a' : Math.max(...runs.native_on_demand.usages.map(promptOf)),
    nativePasses: runs.native_on_demand?.serverActions ?? 0,
  };
}

function promptOf(usage: Usage): number {
  return usage.inputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens;
}

/**
 * The most caching can save on the transcript as it is: each request reads
 * the previous request's whole prompt (0.1×) and writes only what is new
 * (1.25×), the first request writing everything. No breakpoint placement does
 * better without changing what is sent.
 */
function ceilingDollars(uncached: Usage[]): number {
  const pricing = requireModelPricing(MODEL);
  let previous = 0;
  let dollars = 0;
  for (const usage of uncached) {
    const prompt = promptOf(usage);
    const read = Math.min(previous, prompt);
    dollars +=
      (read * pricing.cacheReadMultiplier + (prompt - read) * pricing.cacheWrite5mMultiplier) *
      (pricing.inputPerMTok / 1e6);
    previous = prompt;
  }
  return dollars;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await runCostReplay());
}
