/**
 * Probe recall of the compressor on the default host: for each compaction of a
 * replayed session, the probes derived from the span it replaced (files, commands,
 * errors, the user's constraints and corrections, the open ask, decisions,
 * identifiers) and how many the engine's result named on its own (the compressor
 * as it was before probes were checked) against how many the model sees after
 * ctxhost added what was missing. Also the ledger's size against the window.
 * Long generated sessions (seeds 1 and 2 tuning; 9001 and the swe-agent 9002
 * held out) at an 18k window, and the Claude Code sessions of the corpus at a
 * 64k window. The replay's summarizer is the simulator's (a template, not a model).
 * Run alone: npx tsx --conditions=@ctxhost/source bench/compaction-probes.ts
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runReplay, type ReplayResult } from '@ctxhost/cli';
import { PROBE_KINDS, type CompactionReport, type Message } from '@ctxhost/core';
import { parseTranscript, readTranscript } from '@ctxhost/transcripts';
import { generateLongSession } from '../test/support/long-session.js';
import type { BenchSize } from './bench.js';

export interface ProbeRecallRow {
  sessions: string;
  kind: string;
  probes: number;
  /** Share the compressor's own result named (before). */
  before: string;
  /** Share the model sees after ctxhost's check added what was missing (after). */
  after: string;
}

const NO_WAIT = { hooks: { 'anthropic-auto-compact': { initial_delay_ms: 0, max_delay_ms: 0 } } };
const CORPUS = join(import.meta.dirname, '..', 'test', 'fixtures', 'corpus', 'claude-code');

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

function reports(result: ReplayResult): CompactionReport[] {
  return result.events.flatMap((event) => (event.kind === 'compaction' ? [event.report] : []));
}

function rowsFor(label: string, all: CompactionReport[], window: number): ProbeRecallRow[] {
  const rows: ProbeRecallRow[] = [];
  const share = (part: number, whole: number) => (whole === 0 ? '—' : `${Math.round((part / whole) * 100)}%`);
  let probes = 0;
  let found = 0;
  let kept = 0;
  for (const kind of PROBE_KINDS) {
    const entries = all.map((report) => report.fidelity?.byKind[kind]).filter((entry) => entry !== undefined);
    const total = entries.reduce((sum, entry) => sum + entry.probes, 0);
    const before = entries.reduce((sum, entry) => sum + entry.found, 0);
    const after = entries.reduce((sum, entry) => sum + entry.kept, 0);
    probes += total;
    found += before;
    kept += after;
    rows.push({ sessions: label, kind, probes: total, before: share(before, total), after: share(after, total) });
  }
  rows.push({ sessions: label, kind: 'all', probes, before: share(found, probes), after: share(kept, probes) });
  const ledger = Math.max(0, ...all.map((report) => report.ledger?.tokens ?? 0));
  rows.push({
    sessions: label,
    kind: `ledger (largest, ${all.length} compactions)`,
    probes: ledger,
    before: '—',
    after: `${((ledger / window) * 100).toFixed(1)}% of the window`,
  });
  return rows;
}

/** Smallest: one short generated session. */
export async function runCompactionProbes(size: BenchSize = 'full'): Promise<ProbeRecallRow[]> {
  if (size === 'smallest') {
    const result = await runReplay({ messages: await generated(1, undefined, 8), window: 9_000, config: NO_WAIT });
    return rowsFor('seed 1 (8 requests)', reports(result), 9_000);
  }
  const rows: ProbeRecallRow[] = [];
  for (const [label, sessions] of [
    ['generated, tuning (seeds 1, 2)', [await generated(1), await generated(2)]],
    ['generated, held out (9001, 9002 swe-agent)', [await generated(9001), await generated(9002, ['swe-agent'])]],
  ] as const) {
    const all: CompactionReport[] = [];
    for (const messages of sessions)
      all.push(...reports(await runReplay({ messages, window: 18_000, config: NO_WAIT })));
    rows.push(...rowsFor(label, all, 18_000));
  }
  const corpus: CompactionReport[] = [];
  for (const name of readdirSync(CORPUS)
    .filter((file) => file.endsWith('.jsonl'))
    .sort()) {
    const transcript = await readTranscript(join(CORPUS, name), { includeSidechains: true, skipInvalid: true });
    corpus.push(
      ...reports(
        await runReplay({
          messages: transcript.messages,
          usage: transcript.usage ?? [],
          boundaries: (transcript.boundaries ?? []).map((boundary) => boundary.messageIndex),
          window: 64_000,
          config: NO_WAIT,
        }),
      ),
    );
  }
  rows.push(...rowsFor('corpus, Claude Code (3 sessions, 64k window)', corpus, 64_000));
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(await runCompactionProbes());
