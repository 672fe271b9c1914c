/**
 * Re-compaction cost on the default host path: a session of 1k / 10k / 100k
 * messages (built from the corpus) is compacted once by the default compressor
 * (extractive: no summarizer, so the figure is ctxhost's own work), then 10
 * messages are appended and it is compacted again. Beside it, one
 * JSON.stringify of the whole history (the floor: reading it once). The second
 * compaction has 10 new messages to fold in; its cost should not grow with
 * everything summarized before. Also the size of the compacted projection's
 * JSON and the share of it that is the summary's metadata.
 *
 * Alone: npx tsx --conditions=@ctxhost/source bench/recompaction.ts
 */
import { fileURLToPath } from 'node:url';
import { createMemoryStore, type Message } from '@ctxhost/core';
import { createDefaultHost } from 'ctxhost';
import { buildHistory, corpusMessages } from './compaction-throughput.js';

export interface RecompactionRow {
  messages: number;
  /** One JSON.stringify of the history, ms. */
  stringifyMs: number;
  /** The first compaction of the loaded history, ms. */
  firstMs: number;
  /** The compaction after 10 appended messages, ms. */
  againMs: number;
  /** againMs / stringifyMs. */
  againRatio: number;
  /** JSON of the projection after the second compaction, characters. */
  projectionChars: number;
  /** Share of that JSON that is summary metadata (`meta.summary`). */
  summaryMetaShare: number;
}

const NEW_MESSAGES = 10;
const WINDOW = 200_000;

export async function runRecompaction(sizes: readonly number[] = [1_000, 10_000, 100_000]): Promise<RecompactionRow[]> {
  const corpus = await corpusMessages();
  const rows: RecompactionRow[] = [];
  for (const size of sizes) {
    const history = buildHistory(corpus, size);
    // The fastest of three: the first call also pays for compiling the serializer.
    const stringifyMs = Math.min(...[0, 1, 2].map(() => time(() => JSON.stringify(history))));
    const host = await createDefaultHost({
      config: { store: { kind: 'memory' }, model: { contextLength: WINDOW } },
      store: createMemoryStore(),
    });
    const session = await host.session('bench');
    await session.applyCompaction(history, {
      engine: 'bench',
      reason: 'manual',
      tokensBefore: 0,
      tokensAfter: 0,
      messagesBefore: 0,
      messagesAfter: history.length,
    });
    const started = performance.now();
    const first = await host.compact('bench');
    const firstMs = performance.now() - started;
    if (first.status !== 'completed')
      throw new Error(`recompaction bench: the first compaction at ${size} ${first.status}`);
    for (let index = 0; index < NEW_MESSAGES; index++)
      await session.append(text(index % 2 === 0 ? 'user' : 'assistant', `step ${index}: ${'details '.repeat(400)}`));
    const again = performance.now();
    const second = await host.compact('bench');
    const againMs = performance.now() - again;
    if (second.status !== 'completed')
      throw new Error(`recompaction bench: the second compaction at ${size} ${second.status}`);
    const projection = session.messages();
    const projectionChars = JSON.stringify(projection).length;
    const metaChars = projection.reduce(
      (sum, message) => sum + (message.meta?.summary === undefined ? 0 : JSON.stringify(message.meta.summary).length),
      0,
    );
    rows.push({
      messages: size,
      stringifyMs: round(stringifyMs),
      firstMs: round(firstMs),
      againMs: round(againMs),
      againRatio: round(againMs / stringifyMs),
      projectionChars,
      summaryMetaShare: round(metaChars / projectionChars),
    });
    await host.dispose();
  }
  return rows;
}

let ids = 0;
function text(role: Message['role'], body: string): Message {
  const id = `new-${++ids}`;
  return { id, role, parts: [{ id: `${id}:0`, type: 'text', text: body }] };
}

function time(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) console.table(await runRecompaction(process.argv[2] === undefined ? undefined : [Number(process.argv[2])]));
