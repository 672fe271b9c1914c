import { PROBE_KIND_LABELS, PROBE_KINDS } from '@ctxhost/core';
import { EVAL_COLUMNS, evalRows, OFFLINE_NOTE } from '../eval/format-eval.js';
import type { EvalResult } from '../eval/run-eval.js';
import { escapeHtml } from './chart-frame.js';
import { REPORT_STYLE } from './report-style.js';

/** `ctxhost eval --report`: the engines side by side on one self-contained page (the replay report's style; no script, nothing fetched). */
export function renderEvalReport(result: EvalResult): string {
  const title = `ctxhost eval: ${result.engines.length} engines on ${result.transcripts.length} transcript${result.transcripts.length === 1 ? '' : 's'}`;
  const facts = [
    result.live ? 'the real API answered and summarized' : 'the simulator answered and summarized',
    `model ${result.model ?? 'each transcript’s own'}`,
    `summarizer ${result.summarizers.join(', ') || 'none called'}`,
    `${result.cuts} cuts per transcript`,
    `${result.replicates} replicate${result.replicates === 1 ? '' : 's'}`,
  ].join(' · ');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${REPORT_STYLE}</style></head>
<body><main>
<header><h1>${escapeHtml(title)}</h1><p class="facts">${escapeHtml(facts)}</p></header>
${result.live ? '' : `<section><p class="offline"><strong>${escapeHtml(OFFLINE_NOTE)}</strong></p></section>`}
<section><h2>Engines</h2>${table(
    EVAL_COLUMNS.map((column) => column.header),
    evalRows(result),
    EVAL_COLUMNS.map((column) => column.align === 'right'),
  )}<p class="legend">Each figure: mean ±stdev [min–max] over cuts × replicates. Answered: share of the probes the model named when asked after the compaction. In view: share the compacted context names.</p></section>
<section><h2>By kind of fact (answered / in view, of the probes)</h2>${renderByKind(result)}</section>
<section><h2>Transcripts</h2>${table(
    ['transcript', 'format', 'model', 'messages', 'cut before messages'],
    result.transcripts.map((transcript) => [
      transcript.label,
      transcript.format,
      transcript.model,
      transcript.messages.toLocaleString('en-US'),
      transcript.cutAt.join(', ') || 'none',
    ]),
    [false, false, false, true, false],
  )}</section>
<section><h2>Samples</h2>${renderSamples(result)}</section>
<footer>Written by <code>ctxhost eval</code>. Probes are derived from everything before the cut (core's deriveProbes), the same for every engine; prompt tokens are what the ${result.live ? 'API' : 'simulated API'} reported for the call that asked the questions.</footer>
</main></body></html>
`;
}

function renderByKind(result: EvalResult): string {
  const kinds = PROBE_KINDS.filter((kind) => result.engines.some((engine) => engine.byKind[kind] !== undefined));
  const rows = result.engines.map((engine) => [
    engine.engine,
    ...kinds.map((kind) => {
      const counts = engine.byKind[kind];
      return counts === undefined ? '—' : `${counts.answered} / ${counts.inView} of ${counts.probes}`;
    }),
  ]);
  return table(['engine', ...kinds.map((kind) => PROBE_KIND_LABELS[kind])], rows, [false, ...kinds.map(() => true)]);
}

function renderSamples(result: EvalResult): string {
  const rows = result.samples.map((sample) => [
    sample.transcript,
    String(sample.cut),
    String(sample.replicate),
    sample.engine,
    sample.compacted
      ? `${sample.tokensBefore.toLocaleString('en-US')} → ${sample.tokensAfter.toLocaleString('en-US')}`
      : `not compacted`,
    `${sample.answered} / ${sample.inView} of ${sample.probes}`,
    sample.fidelityScore === undefined ? '—' : `${Math.round(sample.fidelityScore * 100)}%`,
    String(sample.summarizerCalls),
  ]);
  return table(
    [
      'transcript',
      'cut',
      'replicate',
      'engine',
      'tokens (host estimate)',
      'answered / in view',
      'host check',
      'summarizer calls',
    ],
    rows,
    [false, true, true, false, true, true, true, true],
  );
}

function table(header: readonly string[], rows: readonly (readonly string[])[], numeric: readonly boolean[]): string {
  const cell = (tag: string, text: string, index: number) =>
    `<${tag}${numeric[index] === true && tag === 'td' ? ' class="number"' : ''}>${escapeHtml(text)}</${tag}>`;
  return `<table><thead><tr>${header.map((text, index) => cell('th', text, index)).join('')}</tr></thead><tbody>${rows
    .map((row) => `<tr>${row.map((text, index) => cell('td', text, index)).join('')}</tr>`)
    .join('')}</tbody></table>`;
}
