/**
 * Long sessions replayed at small windows and several API limits
 * through the default host (`ctxhost replay`'s runReplay): turns answered of
 * recorded, failed recoveries, compactions and the share that saved under 10%,
 * the share of the prompt read from cache, dollars for the turns and for the
 * summarizer. The sessions come from test/support/long-session.ts (the agent
 * loop against the simulator, tool outputs from the corpus); seeds 9001–9003
 * and the swe-agent source are held out (never tuned on) and reported apart.
 * Run alone: npx tsx --conditions=@ctxhost/source bench/long-session-replay.ts [--quick]
 */
import { pathToFileURL } from 'node:url';
import { runReplay, type ReplayResult } from '@ctxhost/cli';
import { parseTranscript } from '@ctxhost/transcripts';
import { generateLongSession, type LongSessionOptions } from '../test/support/long-session.js';
import type { BenchSize } from './bench.js';

export interface LongReplayRow {
  session: string;
  heldOut: boolean;
  window: number;
  apiLimit: number;
  turns: string;
  failedRecoveries: number;
  overflows: number;
  compactions: number;
  weak: string;
  cacheRead: string;
  turnsDollars: string;
  summarizerDollars: string;
}

const SESSIONS: { options: LongSessionOptions; heldOut: boolean }[] = [
  { options: { seed: 1 }, heldOut: false },
  { options: { seed: 2 }, heldOut: false },
  { options: { seed: 9001 }, heldOut: true },
  { options: { seed: 9002, sources: ['swe-agent'] }, heldOut: true },
];
const WINDOW = 18_000;
const API_LIMITS = [18_000, 15_300, 12_500, 9_000, 7_000];
const NO_WAIT = { hooks: { 'anthropic-auto-compact': { initial_delay_ms: 0, max_delay_ms: 0 } } };

/** A compaction that saved under 10% of what it started from. */
export function weakShare(result: ReplayResult): { weak: number; total: number } {
  const compactions = result.events.flatMap((event) => (event.kind === 'compaction' ? [event.report] : []));
  const weak = compactions.filter(
    (report) => report.tokensBefore > 0 && (report.tokensBefore - report.tokensAfter) / report.tokensBefore < 0.1,
  ).length;
  return { weak, total: compactions.length };
}

/** `quick`: one tuning and one held-out session at two limits; `smallest`: one short session (8 requests) at one limit. */
export async function runLongSessionReplay(size: BenchSize | 'quick' = 'full'): Promise<LongReplayRow[]> {
  const rows: LongReplayRow[] = [];
  const sessions =
    size === 'full' ? SESSIONS : SESSIONS.filter((_, index) => index === 0 || (size === 'quick' && index === 2));
  const limits = size === 'full' ? API_LIMITS : size === 'quick' ? [15_300, 12_500] : [7_000];
  for (const { options: sessionOptions, heldOut } of sessions) {
    const session = await generateLongSession(
      size === 'smallest' ? { ...sessionOptions, requests: 8 } : sessionOptions,
    );
    const { messages } = parseTranscript(session.transcript);
    const withSystem = [
      {
        id: 'system',
        role: 'system' as const,
        parts: [{ id: 'system.0', type: 'text' as const, text: session.system }],
      },
      ...messages,
    ];
    for (const apiLimit of limits) {
      const result = await runReplay({ messages: withSystem, window: WINDOW, contextLimit: apiLimit, config: NO_WAIT });
      const { weak, total } = weakShare(result);
      rows.push({
        session: `${session.name} (${session.modelRequests} requests, peak ${session.peakPromptTokens.toLocaleString('en-US')})`,
        heldOut,
        window: WINDOW,
        apiLimit,
        turns: `${result.answeredTurns}/${result.recordedTurns}`,
        failedRecoveries: result.failedRecoveries,
        overflows: result.overflows,
        compactions: total,
        weak: total === 0 ? '0%' : `${Math.round((weak / total) * 100)}% (${weak})`,
        cacheRead: `${Math.round(result.cost.cacheHitRatio * 100)}%`,
        turnsDollars: `$${result.cost.dollars.toFixed(2)}`,
        summarizerDollars: `$${(result.summarizerCost?.dollars ?? 0).toFixed(2)}`,
      });
    }
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await runLongSessionReplay(process.argv.includes('--quick') ? 'quick' : 'full'));
}
