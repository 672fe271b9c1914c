/**
 * Per-turn overhead vs history length: the time the host, with every default
 * hook, adds to one turn (append the user message, the request waterfall,
 * append the reply with its usage, idle) at 1k, 10k and 100k messages of
 * history — the model call itself excluded. Beside it, oh-my-opencode's monitor
 * behaviour as a baseline: re-estimating the whole history with chars/4 on every event.
 * Run alone: node --expose-gc --import tsx --conditions=@ctxhost/source bench/turn-overhead.ts
 * (without --expose-gc the per-session heap includes garbage not yet collected)
 */
import { pathToFileURL } from 'node:url';
import { createMemoryStore, messageChars, type Message } from '@ctxhost/core';
import { createDefaultHost } from 'ctxhost';
import type { BenchSize } from './bench.js';
import { buildHistory, corpusMessages } from './compaction-throughput.js';

export interface TurnOverheadRow {
  messages: number;
  /** ctxhost: median ms the host adds to one turn. */
  hostMs: number;
  /** Baseline: ms to re-estimate the whole history with chars/4 once (oh-my-opencode's per-event cost). */
  fullRecountMs: number;
  /** Peak heap during the run, MB. */
  heapMb: number;
  /** Heap the open session holds (its store, projection and every hook's per-session state), MB; after a GC when run with --expose-gc. */
  sessionHeapMb: number;
}

const TURNS = 15;

export async function runTurnOverhead(size: BenchSize = 'full'): Promise<TurnOverheadRow[]> {
  const sizes = size === 'smallest' ? [1_000] : [1_000, 10_000, 100_000];
  const corpus = await corpusMessages();
  const rows: TurnOverheadRow[] = [];
  for (const length of sizes) {
    const history = buildHistory(corpus, length);
    const heapBefore = settledHeap();
    const host = await createDefaultHost({
      config: { store: { kind: 'memory' }, model: { contextLength: 1_000_000_000 } },
      store: createMemoryStore(),
    });
    const session = await host.session('bench');
    // Load the history in one step (a restored projection) and report one usage, as a live session would have.
    await session.applyCompaction(history, {
      engine: 'bench',
      reason: 'manual',
      tokensBefore: 0,
      tokensAfter: 0,
      messagesBefore: 0,
      messagesAfter: history.length,
    });
    await session.reportUsage({
      inputTokens: 1000,
      outputTokens: 10,
      cacheCreationInputTokens: 0,
      cacheReadInputTokens: 0,
    });
    const timings: number[] = [];
    for (let turn = 0; turn < TURNS; turn++) {
      const started = performance.now();
      await session.append(text('user', `turn ${turn}: next step please`));
      const request = await host.hooks.beforeRequest.promise(
        { sessionId: 'bench', model: 'claude-sonnet-4-6', messages: session.messages(), maxTokens: 1000 },
        { sessionId: 'bench', contextWindow: 1_000_000_000 },
      );
      await session.append(text('assistant', `done with turn ${turn}`), {
        usage: {
          inputTokens: 1000 + turn,
          outputTokens: 10,
          cacheCreationInputTokens: 0,
          cacheReadInputTokens: request.messages.length,
        },
      });
      await host.emit('session.idle', { sessionId: 'bench' });
      timings.push(performance.now() - started);
    }
    const sessionHeapMb = Math.round((settledHeap() - heapBefore) / 1e6);
    const recount = performance.now();
    let chars = 0;
    for (const message of session.messages()) chars += messageChars(message);
    void Math.ceil(chars / 4);
    const fullRecountMs = performance.now() - recount;
    rows.push({
      messages: length,
      hostMs: round(median(timings)),
      fullRecountMs: round(fullRecountMs),
      heapMb: Math.round(process.memoryUsage().heapUsed / 1e6),
      sessionHeapMb,
    });
    await host.dispose();
  }
  return rows;
}

/** Heap in use, after a full collection when the process was started with --expose-gc. */
function settledHeap(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

let ids = 0;
function text(role: Message['role'], body: string): Message {
  const id = `turn-${++ids}`;
  return { id, role, parts: [{ id: `${id}:0`, type: 'text', text: body }] };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await runTurnOverhead());
}
