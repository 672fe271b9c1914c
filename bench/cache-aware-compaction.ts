/**
 * Cache-aware compaction, measured choice by choice: the demo's
 * Claude Code session (with its subagents) replayed through the default host at
 * the demo's window (18k, the API stopping at 15.3k), once with the compressor
 * as shipped and once with each of its cache-relevant choices undone:
 * - `every turn`: no backoff after a compaction that saved little (compacts whenever over the threshold);
 * - `start rewritten`: the start of the prompt changes on every compaction (a counter appended to the
 *   first message), where the compressor changes it only on the first (its system note). The replay's
 *   agent sends the transcript's system prompt apart from the messages, so no engine can touch that;
 * - `summary first`: the summary goes right after the system prompt, before the kept first exchange.
 * Each row: compactions, the share of prompt tokens read from the cache, and
 * dollars for the turns and for the summarizer's own calls.
 * Run alone: npx tsx --conditions=@ctxhost/source bench/cache-aware-compaction.ts
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runReplay } from '@ctxhost/cli';
import { createCompressor } from '@ctxhost/compressor';
import {
  registerContextEngine,
  unregisterContextEngine,
  type ContextEngine,
  type ContextEngineFactory,
  type Message,
} from '@ctxhost/core';
import { readTranscript } from '@ctxhost/transcripts';
import type { BenchSize } from './bench.js';

export interface CacheAwareRow {
  variant: string;
  compactions: number;
  overflows: number;
  cacheRead: string;
  turnsDollars: string;
  summarizerDollars: string;
  totalDollars: string;
  /** Total against the compressor as shipped. */
  vsShipped: string;
}

const TRANSCRIPT = join(
  import.meta.dirname,
  '..',
  'packages',
  'cli',
  'demo',
  'fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl',
);
const WINDOW = 18_000;
const API_LIMIT = 15_300;

type Variant = (engine: ContextEngine) => ContextEngine;

const VARIANTS: Record<string, Variant> = {
  'as shipped': (engine) => engine,
  'every turn (no backoff)': (engine) => ({
    ...engine,
    shouldCompress: (state) => state.contextWindow !== undefined && state.promptTokens >= 0.5 * state.contextWindow,
  }),
  'start rewritten each compaction': (engine) => {
    const counts = new Map<string, number>();
    return {
      ...engine,
      async compress(messages, context) {
        const result = await engine.compress(messages, context);
        const count = (counts.get(context.sessionId) ?? 0) + 1;
        counts.set(context.sessionId, count);
        return {
          ...result,
          messages: result.messages.map((message, index) =>
            index === 0 ? withLine(message, `[compaction ${count}]`) : message,
          ),
        };
      },
    };
  },
  'summary before the first exchange': (engine) => ({
    ...engine,
    async compress(messages, context) {
      const result = await engine.compress(messages, context);
      const at = result.messages.findIndex((message) => message.meta?.summary !== undefined);
      if (at <= 1) return result;
      const reordered = [...result.messages];
      const [summary] = reordered.splice(at, 1);
      reordered.splice(1, 0, summary!);
      return { ...result, messages: reordered };
    },
  }),
};

function withLine(message: Message, line: string): Message {
  const last = message.parts.at(-1);
  if (last?.type !== 'text') return message;
  return { ...message, parts: [...message.parts.slice(0, -1), { ...last, text: `${last.text}\n${line}` }] };
}

/** Smallest: every variant on the session's first 150 messages (past the window, so compactions happen). */
export async function runCacheAwareCompaction(size: BenchSize = 'full'): Promise<CacheAwareRow[]> {
  const { messages: all } = await readTranscript(TRANSCRIPT, { includeSidechains: true });
  const messages = size === 'smallest' ? all.slice(0, 150) : all;
  const runs: { variant: string; result: Awaited<ReturnType<typeof runReplay>> }[] = [];
  for (const [variant, wrap] of Object.entries(VARIANTS)) {
    const name = `bench-${variant.replace(/\W+/g, '-')}`;
    const factory: ContextEngineFactory = (options) =>
      wrap({
        ...createCompressor({
          compression: options.config.compression,
          ...(options.summarizer === undefined ? {} : { summarizer: options.summarizer }),
        }),
        name,
      });
    registerContextEngine(name, factory);
    try {
      runs.push({
        variant,
        result: await runReplay({ messages, window: WINDOW, contextLimit: API_LIMIT, engine: name }),
      });
    } finally {
      unregisterContextEngine(name);
    }
  }
  const total = (result: Awaited<ReturnType<typeof runReplay>>) =>
    result.cost.dollars + (result.summarizerCost?.dollars ?? 0);
  const shipped = total(runs[0]!.result);
  return runs.map(({ variant, result }) => ({
    variant,
    compactions: result.compactions,
    overflows: result.overflows,
    cacheRead: `${Math.round(result.cost.cacheHitRatio * 100)}%`,
    turnsDollars: `$${result.cost.dollars.toFixed(3)}`,
    summarizerDollars: `$${(result.summarizerCost?.dollars ?? 0).toFixed(3)}`,
    totalDollars: `$${total(result).toFixed(3)}`,
    vsShipped: `${(total(result) / shipped).toFixed(2)}×`,
  }));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await runCacheAwareCompaction());
}
