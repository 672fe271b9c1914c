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
    ];
    return `<tr>${cells.map((cell, column) => `<td${column === 2 || column === 3 || column === 4 || column === 9 ? '' : ' class="number"'}>${escapeHtml(cell)}</td>`).join('')}</tr>`;
  });
  return `<table id="compactions"><thead><tr>${header.map((cell) => `<th>${escapeHtml(cell)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}

/** A provider's compaction, or the fallback from one, says so in the summary cell (which provider, where the readable copy came from, why it fell back). */
function nativeNote(notes: readonly string[] | undefined): string {
  const native = (notes ?? []).filter((note) => /^native compaction: |^(anthropic|openai) compaction \(/.test(note));
  return native.length === 0 ? '' : `; ${native.join('; ')}`;
}
