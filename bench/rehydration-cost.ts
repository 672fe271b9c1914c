/**
 * Rehydration's cost and the ledger's size on long sessions: every compaction the
 * default host ran while replaying the long generated sessions (seeds 1, 2 tuning;
 * 9001, 9002 swe-agent held out) at an 18k window, with the files each compaction
 * touched offered again as the session's record last showed them (`rehydration:
 * 'recorded'`: the replay has no disk of the recorded machine). Per set: compactions,
 * how many re-read files, tokens of the re-read files (mean, largest, share of the
 * window), files skipped for the budget, and the ledger's tokens (mean, largest).
 * Beside each set, the same sessions inside opencode (`opencode-rehydration.ts`): opencode's
 * compactions checked and completed by the opencode plugin, files re-read from a project folder.
 * Run alone: npx tsx --conditions=@ctxhost/source bench/rehydration-cost.ts
 */
import { pathToFileURL } from 'node:url';
import { runReplay } from '@ctxhost/cli';
import { parseTranscript } from '@ctxhost/transcripts';
import type { CompactionReport, Message } from '@ctxhost/core';
import { generateLongSession } from '../test/support/long-session.js';
import { opencodeCompactionsOf } from './opencode-rehydration.js';
import type { BenchSize } from './bench.js';

export interface RehydrationRow {
  sessions: string;
  /** Compactions with rehydration; beside them, the same replays without it. */
  compactions: number;
  compactionsWithout: number;
  withFiles: number;
  filesMean: string;
  rehydratedMean: number;
  rehydratedLargest: number;
  largestShareOfWindow: string;
  skippedFiles: number;
  ledgerMean: number;
  ledgerLargest: number;
  ledgerLargestShareOfWindow: string;
}

const WINDOW = 18_000;
const NO_WAIT = { hooks: { 'anthropic-auto-compact': { initial_delay_ms: 0, max_delay_ms: 0 } } };

async function generated(seed: number, sources?: string[], requests?: number): Promise<Message[]> {
  const session = await generateLongSession({
    seed,
    ...(sources === undefined ? {} : { sources: sources as never }),
    ...(requests === undefined ? {} : { requests }),
  });
  const system: Message = {
    id: 'system',
    role: 'system',
    parts: [{ id: 'system.0', type: 'text', text: session.system }],
  };
  return [system, ...parseTranscript(session.transcript).messages];
}

async function compactionsOf(messages: Message[], window: number, rehydrate = true): Promise<CompactionReport[]> {
  const result = await runReplay({
    messages,
    window,
    config: rehydrate
      ? NO_WAIT
      : { ...NO_WAIT, fidelity: { rehydration: { enabled: false, maxTokens: 0, maxFiles: 0 } } },
    ...(rehydrate ? { rehydration: 'recorded' as const } : {}),
  });
  return result.events.flatMap((event) => (event.kind === 'compaction' ? [event.report] : []));
}

function rowFor(sessions: string, reports: CompactionReport[], without: number, window: number): RehydrationRow {
  const rehydrated = reports.flatMap((report) => (report.rehydrated === undefined ? [] : [report.rehydrated]));
  const tokens = rehydrated.map((entry) => entry.tokens);
  const ledgers = reports.map((report) => report.ledger?.tokens ?? 0);
  const mean = (values: number[]) =>
    values.length === 0 ? 0 : Math.round(values.reduce((sum, value) => sum + value, 0) / values.length);
  const share = (value: number) => `${((value / window) * 100).toFixed(1)}%`;
  const largest = Math.max(0, ...tokens);
  const ledgerLargest = Math.max(0, ...ledgers);
  return {
    sessions,
    compactions: reports.length,
    compactionsWithout: without,
    withFiles: rehydrated.length,
    filesMean:
      rehydrated.length === 0
        ? '0'
        : (rehydrated.reduce((sum, entry) => sum + entry.files.length, 0) / rehydrated.length).toFixed(1),
    rehydratedMean: mean(tokens),
    rehydratedLargest: largest,
    largestShareOfWindow: share(largest),
    skippedFiles: rehydrated.reduce((sum, entry) => sum + entry.skipped.length, 0),
    ledgerMean: mean(ledgers),
    ledgerLargest,
    ledgerLargestShareOfWindow: share(ledgerLargest),
  };
}

/** The opencode plugin's row: the same sessions stored as opencode stores them, compacted by opencode where ctxhost asks it (80%). */
async function opencodeRow(label: string, sessions: readonly Message[][], window: number): Promise<RehydrationRow> {
  const reports: CompactionReport[] = [];
  let without = 0;
  for (const messages of sessions) {
    reports.push(...(await opencodeCompactionsOf(messages, window)));
    without += (await opencodeCompactionsOf(messages, window, false)).length;
  }
  return rowFor(`${label}, inside opencode (plugin)`, reports, without, window);
}

/** Smallest: one short generated session. */
export async function runRehydrationCost(size: BenchSize = 'full'): Promise<RehydrationRow[]> {
  if (size === 'smallest') {
    const messages = await generated(1, undefined, 8);
    const without = (await compactionsOf(messages, 9_000, false)).length;
    return [
      rowFor('seed 1 (8 requests)', await compactionsOf(messages, 9_000), without, 9_000),
      await opencodeRow('seed 1 (8 requests)', [messages], 9_000),
    ];
  }
  const rows: RehydrationRow[] = [];
  for (const [label, sessions] of [
    ['generated, tuning (seeds 1, 2)', [await generated(1), await generated(2)]],
    ['generated, held out (9001, 9002 swe-agent)', [await generated(9001), await generated(9002, ['swe-agent'])]],
  ] as const) {
    const reports: CompactionReport[] = [];
    let without = 0;
    for (const messages of sessions) {
      reports.push(...(await compactionsOf(messages, WINDOW)));
      without += (await compactionsOf(messages, WINDOW, false)).length;
    }
    rows.push(rowFor(`${label}, ${WINDOW / 1000}k window`, reports, without, WINDOW));
    rows.push(await opencodeRow(`${label}, ${WINDOW / 1000}k window`, sessions, WINDOW));
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(await runRehydrationCost());
