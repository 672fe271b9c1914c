/**
 * Times `tokenBudget` with the three cheap strategies (toolResultCompaction,
 * selectiveToolCall, slidingWindow) on 1k / 10k / 100k-message histories built
 * from the corpus, beside one JSON.stringify of the same history (the floor:
 * reading it once). Cold: a fresh token counter and an empty estimator text cache
 * (every distinct text scanned once);
 * warm: the counter already holds the history, as on every turn after the first.
 *
 * Alone: npx tsx --conditions=@ctxhost/source bench/compaction-throughput.ts
 */
import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import {
  applyCompaction,
  selectiveToolCall,
  slidingWindow,
  tokenBudget,
  toolResultCompaction,
} from '@ctxhost/compaction';
import { createTokenCounter, textFeaturesCache, type Message, type Part } from '@ctxhost/core';
import { readTranscript } from '@ctxhost/transcripts';
import type { BenchSize } from './bench.js';

export interface CompactionThroughputRow {
  messages: number;
  /** One JSON.stringify of the history, ms. */
  stringifyMs: number;
  /** tokenBudget with a fresh counter, ms. */
  coldMs: number;
  /** tokenBudget with a counter that has seen the history, ms. */
  warmMs: number;
  /** coldMs / stringifyMs. */
  coldRatio: number;
  /** warmMs / stringifyMs. */
  warmRatio: number;
  tokensBefore: number;
  tokensAfter: number;
}

const CORPUS = fileURLToPath(new URL('../test/fixtures/corpus/claude-code/', import.meta.url));

/** The corpus's Claude Code conversations, system messages dropped, one after another. */
export async function corpusMessages(): Promise<Message[]> {
  const files = (await readdir(CORPUS)).filter((file) => file.endsWith('.jsonl')).sort();
  const messages: Message[] = [];
  for (const file of files)
    messages.push(
      ...(await readTranscript(`${CORPUS}${file}`, { skipInvalid: true })).messages.filter(
        (message) => message.role !== 'system',
      ),
    );
  return messages;
}

/** Repeats the corpus to `size` messages, every id and call id made fresh per copy so groups stay distinct. */
export function buildHistory(corpus: readonly Message[], size: number): Message[] {
  const history: Message[] = [
    { id: 'system', role: 'system', parts: [{ id: 'system:0', type: 'text', text: 'You are a coding agent.' }] },
  ];
  for (let copy = 0; history.length < size; copy++) {
    for (const message of corpus) {
      if (history.length >= size) break;
      history.push({
        ...message,
        id: `${copy}:${message.id}`,
        parts: message.parts.map((part) => freshPart(part, copy)),
      });
    }
  }
  return history;
}

function freshPart(part: Part, copy: number): Part {
  const id = `${copy}:${part.id}`;
  if (part.type === 'tool-call' || part.type === 'tool-result')
    return { ...part, id, callId: `${copy}:${part.callId}` };
  return { ...part, id };
}

function time(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

async function timeAsync(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

export async function runCompactionThroughput(size: BenchSize = 'full'): Promise<CompactionThroughputRow[]> {
  const sizes = size === 'smallest' ? [1_000] : [1_000, 10_000, 100_000];
  const corpus = await corpusMessages();
  const rows: CompactionThroughputRow[] = [];
  for (const length of sizes) {
    const history = buildHistory(corpus, length);
    const stringifyMs = time(() => JSON.stringify(history));
    const counter = createTokenCounter();
    const budget = Math.floor(counter.countAll(history.slice(0, Math.min(history.length, 400))) / 2);
    const strategy = tokenBudget({
      budget,
      strategies: [toolResultCompaction(), selectiveToolCall(), slidingWindow({ keepLastGroups: 200 })],
    });
    const coldCounter = createTokenCounter();
    let result = await applyCompaction(history, strategy, { counter: coldCounter });
    // Cold: nothing seen before, neither by the counter nor by the estimator's process-wide text cache.
    textFeaturesCache.clear();
    const coldMs = await timeAsync(
      async () => (result = await applyCompaction(history, strategy, { counter: createTokenCounter() })),
    );
    const warmMs = await timeAsync(
      async () => (result = await applyCompaction(history, strategy, { counter: coldCounter })),
    );
    rows.push({
      messages: history.length,
      stringifyMs,
      coldMs,
      warmMs,
      coldRatio: coldMs / stringifyMs,
      warmRatio: warmMs / stringifyMs,
      tokensBefore: result.report.tokensBefore,
      tokensAfter: result.report.tokensAfter,
    });
  }
  return rows;
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const rows = await runCompactionThroughput();
  console.table(
    rows.map((row) => ({
      messages: row.messages,
      'JSON.stringify ms': row.stringifyMs.toFixed(1),
      'tokenBudget cold ms': row.coldMs.toFixed(1),
      'tokenBudget warm ms': row.warmMs.toFixed(1),
      'cold / stringify': row.coldRatio.toFixed(2),
      'warm / stringify': row.warmRatio.toFixed(2),
      'tokens before → after': `${row.tokensBefore} → ${row.tokensAfter}`,
    })),
  );
}
