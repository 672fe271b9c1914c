import { formatCount, formatTable, type TableColumn } from '../format-table.js';
import { formatDollars } from '../report/cost-chart.js';
import type { EvalResult } from './run-eval.js';
import type { Spread } from './spread.js';

/** Said under every offline table: the simulator's answers echo the question. */
export const OFFLINE_NOTE =
  'offline: the simulator answered the probe questions (it echoes the question), so "answered" is NOT a quality figure; "in view" (what the compacted context names, no model) is. Pass --live with ANTHROPIC_API_KEY to have the real model answer.';

export const EVAL_COLUMNS: readonly TableColumn[] = [
  { header: 'engine' },
  { header: 'compacted', align: 'right' },
  { header: 'answered (recall)', align: 'right' },
  { header: 'in view', align: 'right' },
  { header: 'prompt tokens after', align: 'right' },
  { header: 'summarizer calls', align: 'right' },
  { header: 'dollars', align: 'right' },
];

/** One row per engine: each figure's mean, ± its standard deviation and [min–max] over the samples. */
export function evalRows(result: EvalResult): string[][] {
  return result.engines.map((engine) => [
    engine.engine,
    `${engine.compacted}/${engine.samples}`,
    percent(engine.recall),
    percent(engine.inView),
    spread(engine.promptTokens, (value) => formatCount(Math.round(value))),
    spread(engine.summarizerCalls, (value) => (Number.isInteger(value) ? String(value) : value.toFixed(1))),
    engine.dollars === undefined ? '— (unpriced)' : spread(engine.dollars, formatDollars),
  ]);
}

/** The whole text output: what was run, the table, and what its figures are. */
export function formatEval(result: EvalResult): string {
  const lines = [
    `${result.live ? 'the real API' : 'the simulator'} answered and summarized (${result.summarizers.join(', ') || 'no summarizer call'}); ${result.cuts} cuts per transcript, ${result.replicates} replicate${result.replicates === 1 ? '' : 's'}`,
    ...result.transcripts.map(
      (transcript) =>
        `  ${transcript.label} (${transcript.format}, ${formatCount(transcript.messages)} messages, model ${transcript.model}): cut before messages ${transcript.cutAt.join(', ') || 'none (too short)'}`,
    ),
    '',
    formatTable(EVAL_COLUMNS, evalRows(result)),
    '',
    'answered: share of the probes (facts derived from everything before the cut) the model named when asked after the compaction; in view: share the compacted context itself names; each as mean ±stdev [min–max] over cuts × replicates. dollars: the summarizer calls plus the first call after the compaction.',
    ...(result.live ? [] : [OFFLINE_NOTE]),
  ];
  return `${lines.join('\n')}\n`;
}

function percent(value: Spread): string {
  return spread(
    value,
    (share) => `${Math.round(share * 100)}%`,
    (stdev) => `${Math.round(stdev * 100)}`,
  );
}

function spread(value: Spread, format: (value: number) => string, formatStdev = format): string {
  if (value.samples === 0) return '—';
  if (value.min === value.max) return format(value.mean);
  return `${format(value.mean)} ±${formatStdev(value.stdev)} [${format(value.min)}–${format(value.max)}]`;
}
