/**
 * The bill of long sessions replayed as they were recorded, through the
 * default host (`ctxhost replay`'s runReplay: the unlogged system prompt and
 * tools reconstructed from the recorded usage), at 200k and 64k windows,
 * beside what the recording agent paid for the same requests and their price
 * without caching. ctxhost's figure is its turns plus its summarizer's calls.
 * Sessions: the long generated ones (seeds 1 and 2 to tune on; 9001 and the
 * swe-agent one held out, reported apart) and every corpus Claude Code session
 * with recorded usage (at the smallest size: seed 1 cut to 8 requests and the
 * smallest corpus session). Goals: ctxhost ≤ 10% of the uncached price and
 * ≤ 0.5× the recorded bill. Each replay starts cold; where the recording's first
 * request read its system prompt and tools from a cache warmed before the
 * session, it is replayed again starting with that cache (`warmStart`), and the
 * session's floor (bill-floor.ts) says what no context manager could go below.
 *
 * Alone: npx tsx --conditions=@ctxhost/source bench/bill-replay.ts
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildInspectReport, runReplay, type ReplayResult } from '@ctxhost/cli';
import type { Message } from '@ctxhost/core';
import { parseTranscript, readTranscript, type Transcript, type TranscriptUsage } from '@ctxhost/transcripts';
import { generateLongSession, type LongSessionOptions } from '../test/support/long-session.js';
import type { BenchSize } from './bench.js';
import { billFloor } from './bill-floor.js';

export interface BillReplayRow {
  session: string;
  heldOut: boolean;
  window: number;
  requests: string;
  /** What the recording agent paid (its recorded usage, each request priced as its model). */
  recordedBill: string;
  /** The recorded requests priced without caching. */
  uncached: string;
  /** ctxhost's replay: turns plus summarizer. */
  ctxhost: string;
  summarizer: string;
  compactions: number;
  /** ctxhost / uncached (goal ≤ 10%). */
  ofUncached: string;
  /** ctxhost / recorded bill (goal ≤ 0.5×). */
  ofRecorded: string;
  /**
   * ctxhost's replay started with the cache the recording shows (`warmStart`: the system prompt and
   * tools its first request read from the cache are warm), turns plus summarizer; the same as
   * `ctxhost` where the recording started cold.
   */
  warmStart: string;
  warmOfUncached: string;
  warmOfRecorded: string;
  /** The least any context manager could pay sending the agent's head on every request (bill-floor.ts), for the corpus sessions; '–' for the generated ones (their system prompt is logged, not a fixed head reconstructed). */
  floor: string;
  floorOfUncached: string;
  floorOfRecorded: string;
}

const FIXTURES = join(import.meta.dirname, '..', 'test', 'fixtures');
const LONG: { options: LongSessionOptions; heldOut: boolean }[] = [
  { options: { seed: 1 }, heldOut: false },
  { options: { seed: 2 }, heldOut: false },
  { options: { seed: 9001 }, heldOut: true },
  { options: { seed: 9002, sources: ['swe-agent'] }, heldOut: true },
];
const CORPUS = readdirSync(join(FIXTURES, 'corpus', 'claude-code'))
  .filter((name) => name.endsWith('.jsonl'))
  .sort()
  .map((name) => join(FIXTURES, 'corpus', 'claude-code', name));
const WINDOWS = [200_000, 64_000];
const NO_WAIT = { hooks: { 'anthropic-auto-compact': { initial_delay_ms: 0, max_delay_ms: 0 } } };

interface Recorded {
  name: string;
  heldOut: boolean;
  /** A recording of a real agent whose unlogged system prompt and tools the replay reconstructs (the floor is priced for these). */
  corpus: boolean;
  transcript: Transcript;
  /** What the replay sends: the transcript's messages, and its usage and boundaries indexed into them. */
  messages: readonly Message[];
  usage: readonly TranscriptUsage[];
  boundaries: readonly number[];
}

async function sessions(size: BenchSize): Promise<Recorded[]> {
  const recorded: Recorded[] = [];
  for (const { options, heldOut } of size === 'smallest' ? LONG.slice(0, 1) : LONG) {
    const session = await generateLongSession(size === 'smallest' ? { ...options, requests: 8 } : options);
    const transcript = parseTranscript(session.transcript);
    const system: Message = {
      id: 'system',
      role: 'system',
      parts: [{ id: 'system.0', type: 'text', text: session.system }],
    };
    recorded.push({
      name: session.name,
      heldOut,
      corpus: false,
      transcript,
      // The system message put first moves every message index one on.
      messages: [system, ...transcript.messages],
      usage: (transcript.usage ?? []).map((entry) => ({
        ...entry,
        messageIndex: entry.messageIndex + 1,
        replyIndex: entry.replyIndex + 1,
      })),
      boundaries: (transcript.boundaries ?? []).map((boundary) => boundary.messageIndex + 1),
    });
  }
  for (const file of size === 'smallest' ? CORPUS.slice(0, 1) : CORPUS) {
    const transcript = await readTranscript(file, { includeSidechains: true, skipInvalid: true });
    recorded.push({
      name: file.split('/').at(-1)!.slice(0, 13),
      heldOut: false,
      corpus: true,
      transcript,
      messages: transcript.messages,
      usage: transcript.usage ?? [],
      boundaries: (transcript.boundaries ?? []).map((boundary) => boundary.messageIndex),
    });
  }
  return recorded;
}

const dollars = (value: number) => `$${value.toFixed(2)}`;
const percent = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)}%`;
const times = (part: number, whole: number) => `${(part / whole).toFixed(2)}×`;

/** `background`, `billPolicy`: replay with `compression.background` / `compression.billPolicy` set so (default: the config's defaults). */
export async function runBillReplay(
  size: BenchSize = 'full',
  options: { background?: boolean; billPolicy?: boolean } = {},
): Promise<BillReplayRow[]> {
  const compression = {
    ...(options.background === undefined ? {} : { background: options.background }),
    ...(options.billPolicy === undefined ? {} : { billPolicy: options.billPolicy }),
  };
  const rows: BillReplayRow[] = [];
  for (const session of await sessions(size)) {
    const recorded = buildInspectReport(session.transcript).usage;
    if (recorded === null) continue;
    for (const window of size === 'smallest' ? [64_000] : WINDOWS) {
      const replay = (warmStart: boolean) =>
        runReplay({
          messages: session.messages,
          usage: session.usage,
          boundaries: session.boundaries,
          window,
          config: { ...NO_WAIT, compression },
          warmStart,
        });
      const result = await replay(false);
      const { main, subagents } = result.reconstructed;
      const startsWarm = (main?.warmTokens ?? 0) + (subagents?.warmTokens ?? 0) > 0;
      const warm = startsWarm ? await replay(true) : result;
      const ctxhost = billOf(result);
      const warmBill = billOf(warm);
      const floor =
        !session.corpus || (main === undefined && subagents === undefined)
          ? undefined
          : billFloor(session.transcript, { main, subagents }, result.model);
      rows.push({
        session: session.name,
        heldOut: session.heldOut,
        window,
        requests: `${result.cost.requests}/${recorded.requests}`,
        recordedBill: dollars(recorded.dollars),
        uncached: dollars(recorded.withoutCaching),
        ctxhost: dollars(ctxhost),
        summarizer: dollars(result.summarizerCost?.dollars ?? 0),
        compactions: result.compactions,
        ofUncached: percent(ctxhost, recorded.withoutCaching),
        ofRecorded: times(ctxhost, recorded.dollars),
        warmStart: dollars(warmBill),
        warmOfUncached: percent(warmBill, recorded.withoutCaching),
        warmOfRecorded: times(warmBill, recorded.dollars),
        floor: floor === undefined ? '–' : dollars(floor),
        floorOfUncached: floor === undefined ? '–' : percent(floor, recorded.withoutCaching),
        floorOfRecorded: floor === undefined ? '–' : times(floor, recorded.dollars),
      });
    }
  }
  return rows;
}

/** ctxhost's dollars: its turns plus its summarizer's calls. */
function billOf(result: ReplayResult): number {
  return result.cost.dollars + (result.summarizerCost?.dollars ?? 0);
}

// Flags: --background (compression.background on), --no-bill-policy (the threshold alone).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  console.table(
    await runBillReplay('full', {
      ...(process.argv.includes('--background') ? { background: true } : {}),
      ...(process.argv.includes('--no-bill-policy') ? { billPolicy: false } : {}),
    }),
  );
