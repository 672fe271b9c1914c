/**
 * Token estimator accuracy against real counts: in the corpus's Claude Code
 * sessions, the growth of the API-reported prompt size between two consecutive
 * main-thread requests is the real token count of the messages added between
 * them. Median absolute relative error of ctxhost's estimator beside chars/4.
 * Run alone: npx tsx --conditions=@ctxhost/source bench/estimator-accuracy.ts
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { estimateTokens, messageChars, promptTokens } from '@ctxhost/core';
import { readTranscript } from '@ctxhost/transcripts';

export interface EstimatorRow {
  session: string;
  deltas: number;
  estimator: string;
  charsOver4: string;
}

const CORPUS = join(import.meta.dirname, '..', 'test', 'fixtures', 'corpus', 'claude-code');

export async function runEstimatorAccuracy(): Promise<EstimatorRow[]> {
  const rows: EstimatorRow[] = [];
  const all = { estimator: [] as number[], chars: [] as number[] };
  for (const file of readdirSync(CORPUS)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()) {
    const { messages, usage = [] } = await readTranscript(join(CORPUS, file));
    const errors = { estimator: [] as number[], chars: [] as number[] };
    for (let index = 1; index < usage.length; index++) {
      const [before, after] = [usage[index - 1]!, usage[index]!];
      const real = promptTokens(after.usage) - promptTokens(before.usage);
      const added = messages.slice(before.messageIndex + 1, after.messageIndex + 1);
      if (real <= 0 || added.length === 0) continue;
      errors.estimator.push(Math.abs(estimateTokens(added) - real) / real);
      errors.chars.push(Math.abs(added.reduce((sum, message) => sum + messageChars(message), 0) / 4 - real) / real);
    }
    all.estimator.push(...errors.estimator);
    all.chars.push(...errors.chars);
    rows.push({
      session: file.slice(0, 8),
      deltas: errors.estimator.length,
      estimator: percent(median(errors.estimator)),
      charsOver4: percent(median(errors.chars)),
    });
  }
  rows.push({
    session: 'all',
    deltas: all.estimator.length,
    estimator: percent(median(all.estimator)),
    charsOver4: percent(median(all.chars)),
  });
  return rows;
}

function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function percent(value: number): string {
  return Number.isNaN(value) ? 'n/a' : `${(value * 100).toFixed(1)}%`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await runEstimatorAccuracy());
}
