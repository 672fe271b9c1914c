/**
 * The next call with a learned window, after a compaction: on the stateless path an answered request's prompt
 * raises the model's learned bound (`relaxLearnedWindow`), counted by the view's running count. A bound is
 * set (its fit 1.5x the first prompt, so the first call compacts under its threshold), one first call, then 30
 * next calls of 2 appended messages each (LangChain's mapping, `HeadedPrompt`). Per next call: the messages the
 * host's token counter was asked to count (load-independent: O(new) is 2 a call) and the CPU time, p50 of the
 * last 29 (`process.cpuUsage`, garbage collection included); `first counted` is the first next call's count.
 *
 *   npx tsx --conditions=@ctxhost/source bench/learned-window-raise.ts <messages>
 */
import { fileURLToPath } from 'node:url';
import {
  createPromptOriginals,
  createStatelessIntegration,
  setLearnedWindowBound,
  type MappedPromptItem,
  type Message,
} from '@ctxhost/core';
import { fromLangChainMessage, toLangChainRequest } from '@ctxhost/langchain';
import { createDefaultHost } from 'ctxhost';
import { buildHistory, corpusMessages } from './compaction-throughput.js';
import { withDistinctTexts } from './distinct-texts.js';

const MODEL = 'claude-sonnet-4-6';
const CALLS = 30;

const cpuMs = (): number => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

export interface LearnedWindowRaiseRow {
  messages: number;
  compactions: number;
  /** Messages counted by the first next call (after the first call's compaction). */
  firstCounted: number;
  /** The most messages any later next call counted. */
  maxCounted: number;
  p50Ms: number;
}

export async function measureLearnedWindowRaise(size: number): Promise<LearnedWindowRaiseRow> {
  const host = await createDefaultHost({ config: { store: { kind: 'memory' } } });
  let counted = 0;
  const countAll = host.counter.countAll.bind(host.counter);
  (host.counter as { countAll: (messages: readonly Message[]) => number }).countAll = (messages) => {
    counted += messages.length;
    return countAll(messages);
  };
  let compactions = 0;
  host.hooks.compactionCompleted.tap('bench', () => void compactions++);
  const integration = createStatelessIntegration<unknown, unknown>({
    name: 'langchain',
    options: { host },
    map: fromLangChainMessage as (source: unknown, id: string) => MappedPromptItem<unknown>,
    createDefaultHost: () => host,
  });
  const history = withDistinctTexts(buildHistory(await corpusMessages(), size + 2 * CALLS + 2));
  const request = toLangChainRequest(history, createPromptOriginals(), { cacheControl: false });
  const head = request.systemMessage === undefined ? [] : [request.systemMessage];
  const body = request.messages as unknown[];
  const tokens = host.counter.countAll(history.slice(0, size));
  setLearnedWindowBound(host, MODEL, { fits: Math.ceil(tokens * 1.5), rejected: tokens * 4 });
  const call = async (list: unknown[]) => {
    const turn = await integration.prepare({ head, list }, integration.request({ model: MODEL }));
    return turn.run(async () => undefined);
  };
  await call(body.slice(0, size));
  const times: number[] = [];
  const counts: number[] = [];
  for (let index = 1; index <= CALLS; index++) {
    counted = 0;
    const started = cpuMs();
    await call(body.slice(0, size + 2 * index));
    times.push(cpuMs() - started);
    counts.push(counted);
  }
  const later = times.slice(1).sort((left, right) => left - right);
  return {
    messages: size,
    compactions,
    firstCounted: counts[0]!,
    maxCounted: Math.max(...counts.slice(1)),
    p50Ms: Math.round(later[later.length >> 1]! * 100) / 100,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  console.log(JSON.stringify(await measureLearnedWindowRaise(Number(process.argv[2] ?? 1_000))));
