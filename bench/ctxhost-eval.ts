/**
 * `ctxhost eval` on three corpus sessions (OpenHands, SWE-agent, Claude Code) with
 * every engine, and the unchecked variants of the three that write a summary: per
 * engine, probe recall of the model's answer (the simulator's: not a quality
 * figure), the probes in view after the compaction, prompt tokens, summarizer calls
 * and dollars, each with its spread over cuts × replicates.
 * Run alone: npx tsx --conditions=@ctxhost/source bench/ctxhost-eval.ts
 * (the same table as `ctxhost eval <the three files> --engine … --cuts 3 --replicates 2`).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EVAL_COLUMNS, EVAL_ENGINES, evalRows, parseEngineSpecs, runEval } from '@ctxhost/cli';
import { withDefaults } from '@ctxhost/core';
import { readTranscript } from '@ctxhost/transcripts';
import type { BenchSize } from './bench.js';

const CORPUS = join(import.meta.dirname, '..', 'test', 'fixtures', 'corpus');

export const EVAL_SESSIONS = [
  'openhands/multi-swe-bench-output.jsonl',
  'swe-agent/pydicom__pydicom-1458.traj',
  'claude-code/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl',
] as const;

export const EVAL_BENCH_ENGINES = [
  ...EVAL_ENGINES,
  'compressor/unchecked',
  'lcm/unchecked',
  'maf-summarization/unchecked',
] as const;

/** Smallest: one session, one cut, two engines. */
export async function runCtxhostEval(size: BenchSize = 'full'): Promise<Record<string, string>[]> {
  const smallest = size === 'smallest';
  const files = smallest ? EVAL_SESSIONS.slice(0, 1) : EVAL_SESSIONS;
  const transcripts = [];
  for (const file of files)
    transcripts.push({
      label: file,
      transcript: await readTranscript(join(CORPUS, file), { skipInvalid: true, includeSidechains: false }),
    });
  const result = await runEval({
    transcripts,
    engines: parseEngineSpecs(smallest ? ['compressor,maf-truncation'] : [...EVAL_BENCH_ENGINES]),
    cuts: smallest ? 1 : 3,
    replicates: smallest ? 1 : 2,
    config: withDefaults({ store: { kind: 'memory' } }),
    cwd: process.cwd(),
  });
  return evalRows(result).map((row) =>
    Object.fromEntries(EVAL_COLUMNS.map((column, index) => [column.header, row[index] ?? ''])),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(await runCtxhostEval());
