/**
 * Replay fidelity: each Claude Code session of the corpus (and the derived one with
 * Claude Code's own compaction) replayed at a window too large to compact, its peak
 * prompt and its price without caching against the recorded ones (target: within 10%).
 * The replay rebuilds the unlogged system prompt and tools from the first request,
 * replays each compaction segment from its summary, and prices each call as its model.
 * Run alone: npx tsx --conditions=@ctxhost/source bench/replay-fidelity.ts
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readTranscript } from '@ctxhost/transcripts';
import { buildInspectReport, runReplay } from '@ctxhost/cli';
import type { BenchSize } from './bench.js';

export interface ReplayFidelityRow {
  session: string;
  calls: string;
  peakRecorded: number;
  peakReplayed: number;
  peakRatio: string;
  uncachedRecorded: string;
  uncachedReplayed: string;
  priceRatio: string;
  prefixMain: number;
  prefixSubagents: number;
}

const FIXTURES = join(import.meta.dirname, '..', 'test', 'fixtures');
const SESSIONS = [
  ...readdirSync(join(FIXTURES, 'corpus', 'claude-code'))
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .map((name) => join(FIXTURES, 'corpus', 'claude-code', name)),
  join(FIXTURES, 'claude-code-compaction', 'compacted-session.jsonl'),
];
const WINDOW = 1_000_000;

/** Smallest: the shortest session. */
export async function runReplayFidelity(size: BenchSize = 'full'): Promise<ReplayFidelityRow[]> {
  const rows: ReplayFidelityRow[] = [];
  for (const file of size === 'smallest' ? SESSIONS.slice(0, 1) : SESSIONS) {
    const transcript = await readTranscript(file, { includeSidechains: true, skipInvalid: true });
    const recorded = buildInspectReport(transcript).usage!;
    const result = await runReplay({
      messages: transcript.messages,
      usage: transcript.usage ?? [],
      boundaries: (transcript.boundaries ?? []).map((boundary) => boundary.messageIndex),
      window: WINDOW,
      config: {},
    });
    rows.push({
      session: file.split('/').at(-1)!.slice(0, 24),
      calls: `${result.cost.requests}/${recorded.requests}`,
      peakRecorded: recorded.peakPromptTokens,
      peakReplayed: result.peak,
      peakRatio: (result.peak / recorded.peakPromptTokens).toFixed(3),
      uncachedRecorded: `$${recorded.withoutCaching.toFixed(2)}`,
      uncachedReplayed: `$${result.cost.withoutCaching.toFixed(2)}`,
      priceRatio: (result.cost.withoutCaching / recorded.withoutCaching).toFixed(3),
      prefixMain: result.reconstructed.main?.tokens ?? 0,
      prefixSubagents: result.reconstructed.subagents?.tokens ?? 0,
    });
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(await runReplayFidelity());
