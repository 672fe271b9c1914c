/**
 * The warm next call at a prompt size: one first call, then 150 next calls of 2 appended messages each (the
 * prefix's objects handed again in a new array), the p50 and mean CPU time of the last 149
 * (`process.cpuUsage`, every thread: garbage collection included). Two paths:
 * - `prepare`: `createStatelessIntegration`'s prepare of the head and the list (`HeadedPrompt`, as the
 *   integrations hand them), the integration's rendering back with the framework's own list (`CallerList`) and
 *   the turn's `run` (Agents SDK or LangChain mapping);
 * - `filter`: the OpenAI Agents SDK's real `callModelInputFilter` and wrapped model (a model stub that is not
 *   `OpenAIResponsesModel`, answering at once), which also puts the instructions in front of the run's input.
 *
 *   npx tsx --conditions=@ctxhost/source bench/next-call-warm.ts <agents | langchain | filter> <messages>
 */
import { fileURLToPath } from 'node:url';
import { createPromptOriginals, createStatelessIntegration, type MappedPromptItem, type Message } from '@ctxhost/core';
import { fromLangChainMessage, toLangChainRequest } from '@ctxhost/langchain';
import { createContextManagement, fromAgentItem, toAgentItems, type MirrorItem } from '@ctxhost/openai-agents';
import { createDefaultHost } from 'ctxhost';
import { buildHistory, corpusMessages } from './compaction-throughput.js';
import type { BenchSize } from './bench.js';
import { withDistinctTexts } from './distinct-texts.js';

const WINDOW = 1_000_000_000;
const CALLS = 150;

interface Path {
  /** The framework's head and list for these messages. */
  promptOf(messages: readonly Message[]): { head: unknown[]; body: unknown[] };
  /** One call with the framework's head and list. */
  call(head: readonly unknown[], body: readonly unknown[]): Promise<unknown>;
}

const cpuMs = (): number => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

async function preparePath(which: 'agents' | 'langchain'): Promise<Path> {
  const host = await createDefaultHost({ config: { store: { kind: 'memory' }, model: { contextLength: WINDOW } } });
  const map = (which === 'agents' ? fromAgentItem : fromLangChainMessage) as (
    source: unknown,
    id: string,
  ) => MappedPromptItem<unknown>;
  const integration = createStatelessIntegration<unknown, unknown>({
    name: which,
    options: { host, contextWindow: WINDOW },
    map,
    createDefaultHost: () => host,
  });
  return {
    promptOf(messages) {
      if (which === 'agents') {
        const items = toAgentItems(messages, createPromptOriginals());
        const head = { role: 'system', content: items.instructions ?? 'Be brief.', instructionsOnly: true };
        return { head: [head], body: items.input };
      }
      const request = toLangChainRequest(messages, createPromptOriginals(), { cacheControl: false });
      return { head: request.systemMessage === undefined ? [] : [request.systemMessage], body: request.messages };
    },
    async call(head, body) {
      const turn = await integration.prepare({ head, list: body }, integration.request({ model: 'claude-sonnet-4-6' }));
      const storage = turn.sourceStorage;
      const caller = storage === undefined ? undefined : { list: body as never[], storage, offset: head.length };
      const sent =
        which === 'agents'
          ? toAgentItems(turn.messages!, turn.originals as never, caller)
          : toLangChainRequest(turn.messages!, turn.originals as never, { cacheControl: false }, caller);
      return turn.run(async () => sent);
    },
  };
}

async function filterPath(): Promise<Path> {
  const host = await createDefaultHost({ config: { store: { kind: 'memory' }, model: { contextLength: WINDOW } } });
  const ctx = createContextManagement({ host, contextWindow: WINDOW, model: 'claude-sonnet-4-6' });
  const model = ctx.wrapModel({
    getResponse: async () => ({ usage: {}, output: [], responseId: 'stub' }),
    getStreamedResponse: async function* () {},
  } as never);
  return {
    promptOf(messages) {
      const items = toAgentItems(messages, createPromptOriginals());
      return { head: [items.instructions ?? 'Be brief.'], body: items.input };
    },
    async call(head, body) {
      const modelData = { instructions: head[0] as string, input: body as MirrorItem[] };
      const filtered = await ctx.callModelInputFilter({
        modelData,
        agent: { model: 'stub' },
        context: undefined,
      } as never);
      return model.getResponse({
        systemInstructions: filtered.instructions,
        input: filtered.input,
        modelSettings: {},
        tools: [],
        outputType: 'text',
        handoffs: [],
        tracing: false,
      } as never);
    },
  };
}

type PathName = 'agents' | 'langchain' | 'filter';

export interface NextCallWarmRow {
  path: PathName;
  messages: number;
  calls: number;
  p50Ms: number;
  meanMs: number;
}

/** One path at one prompt size: a first call, then `calls` next calls of 2 appended messages each. */
async function measure(which: PathName, size: number, calls: number): Promise<NextCallWarmRow> {
  const path = which === 'filter' ? await filterPath() : await preparePath(which);
  const history = withDistinctTexts(buildHistory(await corpusMessages(), size + 2 * calls + 2));
  const { head, body } = path.promptOf(history);
  const first = body.slice(0, size);
  await path.call(head, first);
  const times: number[] = [];
  for (let call = 1; call <= calls; call++) {
    const next = body.slice(0, size + 2 * call);
    const started = cpuMs();
    await path.call(head, next);
    if (call > 1) times.push(cpuMs() - started);
  }
  const sorted = times.slice().sort((left, right) => left - right);
  const mean = times.reduce((sum, time) => sum + time, 0) / times.length;
  const round = (ms: number) => Math.round(ms * 100) / 100;
  return {
    path: which,
    messages: size,
    calls: times.length,
    p50Ms: round(sorted[sorted.length >> 1]!),
    meanMs: round(mean),
  };
}

/** `pnpm bench`: every path at 1k and 100k messages (the target compares the two p50s); the smallest size, 200 with 10 calls. */
export async function runNextCallWarm(size: BenchSize): Promise<NextCallWarmRow[]> {
  const sizes = size === 'smallest' ? [200] : [1_000, 100_000];
  const calls = size === 'smallest' ? 10 : CALLS;
  const rows: NextCallWarmRow[] = [];
  for (const which of ['agents', 'langchain', 'filter'] as const)
    for (const messages of sizes) rows.push(await measure(which, messages, calls));
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const which = (process.argv[2] ?? 'agents') as PathName;
  const row = await measure(which, Number(process.argv[3] ?? 100_000), CALLS);
  console.log(`${which} ${row.messages}: p50 ${row.p50Ms.toFixed(2)} ms, mean ${row.meanMs.toFixed(2)} ms`);
}
