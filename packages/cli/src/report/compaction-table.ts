import type { CompactionReport } from '@ctxhost/core';
import type { ReplayEvent } from '../replay/replay-recorder.js';
import { escapeHtml } from './chart-frame.js';

type CompactionEvent = Extract<ReplayEvent, { kind: 'compaction' }>;

/** One row per compaction: where it ran, why, what it saved, and how the span was summarized. */
export function renderCompactionTable(events: readonly ReplayEvent[]): string {
  const compactions = events.filter((event): event is CompactionEvent => event.kind === 'compaction');
  if (compactions.length === 0)
    return '<p class="empty">No compaction ran: the session stayed under the engine\'s threshold.</p>';
  const header = [
    '#',
    'after call',
    'session',
    'reason',
    'engine',
    'tokens before',
    'tokens after',
    'saved',
    'messages',
    'summary',
    'fidelity',
  ];
  const rows = compactions.map((event, index) => {
    const { report } = event;
    const saved = report.tokensBefore - report.tokensAfter;
    const cells = [
      String(index + 1),
      String(event.call),
      event.sessionId,
      report.reason,
      report.engine,
      count(report.tokensBefore),
      count(report.tokensAfter),
      `${count(saved)} (${report.tokensBefore === 0 ? 0 : Math.round((saved / report.tokensBefore) * 100)}%)`,
      `${report.messagesBefore} → ${report.messagesAfter}`,
      report.summary === undefined
        ? '—'
        : `${report.summary.source}, ${count(report.summary.tokens)} tokens for ${report.summary.messagesCovered} messages${nativeNote(report.notes)}`,
      fidelityCell(report),
    ];
    const row = `<tr id="compaction-${index + 1}">${cells.map((cell, column) => `<td${column === 2 || column === 3 || column === 4 || column === 9 || column === 10 ? '' : ' class="number"'}>${escapeHtml(cell)}</td>`).join('')}</tr>`;
    return row + missedRow(report, index + 1, header.length);
  });
  return `<table id="compactions"><thead><tr>${header.map((cell) => `<th>${escapeHtml(cell)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The probe check: what the model sees after the compaction, and what the engine's result alone kept. */
function fidelityCell(report: CompactionReport): string {
  const fidelity = report.fidelity;
  if (fidelity === undefined) return '—';
  if (fidelity.probes === 0) return 'no probes';
  const ledger = report.ledger === undefined ? '' : `; ledger ${count(report.ledger.tokens)} tokens`;
  const files = report.rehydrated === undefined ? '' : `; ${report.rehydrated.files.length} files re-read`;
  return `${percent(fidelity.score)} of ${fidelity.probes} probes (engine alone ${percent(fidelity.candidateScore)})${ledger}${files}`;
}

/** The probes the engine's result missed, under its row, and how to see the compaction in full. */
function missedRow(report: CompactionReport, number: number, columns: number): string {
  const missed = report.fidelity?.missed ?? [];
  if (missed.length === 0) return '';
  const items = missed.map((probe) => `<li>${escapeHtml(`${probe.kind}: ${probe.text}`)}</li>`).join('');
  const added = report.fidelity?.added ?? 0;
  return `<tr class="missed"><td colspan="${columns}"><details><summary>${escapeHtml(`compaction ${number}: ${missed.length} probes missed by the engine, ${added} added beside its summary (ctxhost show … --compaction ${number} prints the summary, ledger and dropped span)`)}</summary><ul>${items}</ul></details></td></tr>`;
}

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}

/** A provider's compaction, or the fallback from one, says so in the summary cell (which provider, where the readable copy came from, why it fell back). */
function nativeNote(notes: readonly string[] | undefined): string {
  const native = (notes ?? []).filter((note) => /^native compaction: |^(anthropic|openai) compaction \(/.test(note));
  return native.length === 0 ? '' : `; ${native.join('; ')}`;
}
