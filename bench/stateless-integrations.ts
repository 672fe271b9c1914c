/**
 * The stateless path's cost per call, through each framework integration (issue: O(new) integrations):
 * a prompt of 1k / 10k / 100k messages (the corpus, repeated, every text made distinct: `withDistinctTexts`, so the
 * estimator's text cache hits no more than on a real conversation) handed over whole on the first call, then
 * the next call with 2 appended messages, with the prefix's objects handed again (as a caller that keeps
 * its list does) and as fresh copies (as a framework that rebuilds its prompt each call does). Beside it,
 * one JSON.stringify of the prompt (the floor: reading it once). The window is far above the prompt, so
 * no compaction runs: the figure is ctxhost's own work per call (hashing, the view, the request hooks), in CPU time
 * (`process.cpuUsage`, garbage collection included: the machine is shared, so wall time says little).
 * `@ctxhost/ai-sdk` through its real `transformParams`; LangChain and the OpenAI Agents SDK through
 * `createStatelessIntegration` with their mapping and their rendering back (what their middleware and
 * filter do around the framework's own call). Mastra's prompt is the AI SDK's and goes through the same mapping.
 *
 * Alone: npx tsx --conditions=@ctxhost/source bench/stateless-integrations.ts
 */
import { fileURLToPath } from 'node:url';
import { contextManagementMiddleware, toAiSdkPrompt } from '@ctxhost/ai-sdk';
import {
  createPromptOriginals,
  createStatelessIntegration,
  type CallerList,
  type Message,
  type MappedPromptItem,
  type StatelessTurn,
} from '@ctxhost/core';
import { fromLangChainMessage, toLangChainRequest } from '@ctxhost/langchain';
import { fromAgentItem, toAgentItems, type MirrorItem } from '@ctxhost/openai-agents';
import { createDefaultHost } from 'ctxhost';
import type { BenchSize } from './bench.js';
import { buildHistory, corpusMessages } from './compaction-throughput.js';
import { withDistinctTexts } from './distinct-texts.js';

export interface StatelessIntegrationRow {
  integration: string;
  messages: number;
  /** One JSON.stringify of the framework's prompt, ms. */
  stringifyMs: number;
  /** The first call with the whole prompt, ms. */
  firstMs: number;
  /** firstMs / stringifyMs (target ≤ 3 at 100k). */
  firstRatio: number;
  /** The next call, 2 messages appended, the prefix's objects handed again, ms. */
  nextSameObjectsMs: number;
  /** The same prompt again, every message a fresh copy (a framework that rebuilds its prompt each call), ms. */
  nextFreshCopiesMs: number;
  /**
   * The median of 5 more next calls, 2 messages appended each (same objects): the steady cost, without the
   * garbage collection of the first call's heap that lands in the calls right after it.
   */
  nextSteadyMs: number;
}

const WINDOW = 1_000_000_000;
/** Next calls after those three, for the steady figure. */
const STEADY_CALLS = 5;

interface Subject<S> {
  name: string;
  /** The framework's prompt for these messages. */
  promptOf(messages: readonly Message[]): S[];
  /**
   * The list the framework hands apart from its head (instructions, a system message), which an
   * integration hands back when the request is exactly it; made outside the timed call, as the framework has it.
   */
  bodyOf(prompt: readonly S[]): readonly S[];
  /** One call through the integration, resolving with what would be sent. */
  call(prompt: readonly S[], body: readonly S[]): Promise<unknown>;
}

async function aiSdkSubject(): Promise<Subject<ReturnType<typeof toAiSdkPrompt>[number]>> {
  const host = await createDefaultHost({ config: { store: { kind: 'memory' }, model: { contextLength: WINDOW } } });
  const middleware = contextManagementMiddleware({ host, contextWindow: WINDOW });
  const model = { modelId: 'claude-sonnet-4-6', provider: 'anthropic.messages' } as Parameters<
    NonNullable<typeof middleware.transformParams>
  >[0]['model'];
  return {
    name: '@ctxhost/ai-sdk (transformParams)',
    promptOf: (messages) => toAiSdkPrompt(messages, createPromptOriginals()),
    bodyOf: (prompt) => prompt,
    async call(prompt) {
      // The prompt as the SDK hands it over: every call here gets an array of its own already (a copy here was the
      // harness's own cost inside the timing, 0.5 ms at 100k messages).
      const params = await middleware.transformParams!({
        type: 'stream',
        params: { prompt: prompt as ReturnType<typeof toAiSdkPrompt>, maxOutputTokens: 1000 },
        model,
      });
      // The AI SDK then calls wrapStream, which ends the turn (the view goes back to the pool for the next call).
      const reply = { stream: new ReadableStream({ start: (controller) => controller.close() }) };
      await middleware.wrapStream!({
        doStream: async () => reply,
        doGenerate: async () => Promise.reject(new Error('not called')),
        params,
        model,
      });
      return params;
    },
  };
}

async function statelessSubject<S, P>(
  name: string,
  map: (source: S, id: string) => MappedPromptItem<P>,
  promptOf: (messages: readonly Message[]) => S[],
  /** How many items open the prompt as its head (the framework's instructions or system message, handed apart). */
  headLength: (prompt: readonly S[]) => number,
  /** The integration's rendering back, given the framework's own list (the prompt after its head). */
  render: (messages: readonly Message[], turn: StatelessTurn<S, P>, caller: CallerList<never> | undefined) => unknown,
): Promise<Subject<S>> {
  const host = await createDefaultHost({ config: { store: { kind: 'memory' }, model: { contextLength: WINDOW } } });
  const integration = createStatelessIntegration<S, P>({
    name,
    options: { host, contextWindow: WINDOW },
    map,
    createDefaultHost: () => host,
  });
  return {
    name,
    promptOf,
    bodyOf: (prompt) => prompt.slice(headLength(prompt)),
    async call(prompt, body) {
      // The head apart from the framework's own list, as the integrations hand them (`HeadedPrompt`).
      const head = prompt.slice(0, prompt.length - body.length);
      const turn = await integration.prepare({ head, list: body }, integration.request({ model: 'claude-sonnet-4-6' }));
      const storage = turn.sourceStorage;
      const caller = storage === undefined ? undefined : { list: body as never[], storage, offset: head.length };
      const sent = turn.messages === undefined ? prompt : render(turn.messages, turn, caller);
      await turn.run(async () => sent);
      return sent;
    },
  };
}

/** Each subject made when its turn comes: the hosts of the ones before it (their 100k state) are garbage by then. */
function subjects(): (() => Promise<Subject<unknown>>)[] {
  return [
    aiSdkSubject,
    () =>
      statelessSubject(
        '@ctxhost/langchain (prepare + render)',
        fromLangChainMessage,
        (messages) => {
          const request = toLangChainRequest(messages, createPromptOriginals(), { cacheControl: false });
          return [...(request.systemMessage === undefined ? [] : [request.systemMessage]), ...request.messages];
        },
        (prompt) => (prompt[0]?.getType() === 'system' ? 1 : 0),
        (messages, turn, caller) => toLangChainRequest(messages, turn.originals, { cacheControl: false }, caller),
      ),
    () =>
      statelessSubject<MirrorItem, unknown>(
        '@ctxhost/openai-agents (prepare + render)',
        fromAgentItem,
        (messages) => {
          const items = toAgentItems(messages, createPromptOriginals());
          return [
            ...(items.instructions === undefined
              ? []
              : [{ role: 'system' as const, content: items.instructions, instructionsOnly: true as const }]),
            ...(items.input as MirrorItem[]),
          ];
        },
        (prompt) => (prompt[0] !== undefined && 'instructionsOnly' in prompt[0] ? 1 : 0),
        (messages, turn, caller) => toAgentItems(messages, turn.originals, caller),
      ),
  ];
}

export async function runStatelessIntegrations(
  size: BenchSize,
  only: { messages?: number[]; integration?: string } = {},
): Promise<StatelessIntegrationRow[]> {
  const sizes = only.messages ?? (size === 'smallest' ? [200] : [1_000, 10_000, 100_000]);
  const corpus = await corpusMessages();
  const rows: StatelessIntegrationRow[] = [];
  for (const messages of sizes) {
    const history = withDistinctTexts(buildHistory(corpus, messages + 2 + 2 * STEADY_CALLS));
    for (const make of subjects()) {
      const subject = await make();
      if (only.integration !== undefined && !subject.name.includes(only.integration)) continue;
      const prompt = subject.promptOf(history.slice(0, messages));
      const whole = subject.promptOf(history);
      const appended = whole.slice(prompt.length, prompt.length + 2);
      const stringifyMs = Math.min(...[0, 1, 2].map(() => time(() => JSON.stringify(prompt))));
      const firstBody = subject.bodyOf(prompt);
      const firstMs = await timeAsync(() => subject.call(prompt, firstBody));
      const extended = [...prompt, ...appended];
      const extendedBody = subject.bodyOf(extended);
      const nextSameObjectsMs = await timeAsync(() => subject.call(extended, extendedBody));
      const copies = subject.promptOf(history.slice(0, messages + 2));
      const copiesBody = subject.bodyOf(copies);
      const nextFreshCopiesMs = await timeAsync(() => subject.call(copies, copiesBody));
      const steady: number[] = [];
      for (let call = 1; call <= STEADY_CALLS; call++) {
        const next = [...copies, ...whole.slice(messages + 2, messages + 2 + 2 * call)];
        const nextBody = subject.bodyOf(next);
        steady.push(await timeAsync(() => subject.call(next, nextBody)));
      }
      rows.push({
        integration: subject.name,
        messages,
        stringifyMs: round(stringifyMs),
        firstMs: round(firstMs),
        firstRatio: round(firstMs / stringifyMs),
        nextSameObjectsMs: round(nextSameObjectsMs),
        nextFreshCopiesMs: round(nextFreshCopiesMs),
        nextSteadyMs: round(steady.sort((left, right) => left - right)[Math.floor(STEADY_CALLS / 2)]!),
      });
    }
  }
  return rows;
}

/** CPU time (user + system, every thread of the process: GC included), ms: the machine is shared, so wall time says little. */
function time(fn: () => unknown): number {
  const started = process.cpuUsage();
  fn();
  return cpuMs(process.cpuUsage(started));
}

async function timeAsync(fn: () => Promise<unknown>): Promise<number> {
  const started = process.cpuUsage();
  await fn();
  return cpuMs(process.cpuUsage(started));
}

const cpuMs = (used: NodeJS.CpuUsage): number => (used.user + used.system) / 1000;

const round = (value: number): number => Math.round(value * 100) / 100;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // Optional: `--messages 1000,100000 --integration ai-sdk` (one size or framework at a time, e.g. under a profiler).
  const flag = (name: string): string | undefined => process.argv[process.argv.indexOf(`--${name}`) + 1];
  const messages = process.argv.includes('--messages') ? flag('messages')!.split(',').map(Number) : undefined;
  const integration = process.argv.includes('--integration') ? flag('integration') : undefined;
  console.table(
    await runStatelessIntegrations('full', {
      ...(messages === undefined ? {} : { messages }),
      ...(integration === undefined ? {} : { integration }),
    }),
  );
}
