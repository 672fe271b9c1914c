import {
  ADDENDUM,
  messageTexts,
  summaryTextOf,
  type CompactionReport,
  type Message,
  type StoredEvent,
} from '@ctxhost/core';

/** One compaction of a stored session, as `ctxhost show --compaction N` prints it. */
export interface CompactionView {
  number: number;
  /** How many compactions the session has. */
  of: number;
  report: CompactionReport;
  /** The summary the engine wrote (without what ctxhost added). */
  summary: string;
  summaryId?: string;
  /** ctxhost's additions beside the summary: the ledger, the facts the summary missed, the files re-read. */
  ledger?: string;
  missed?: string;
  rehydrated?: string;
  /** The messages the compaction took out of view, in order (their originals stay in the store). */
  dropped: Message[];
}

/**
 * The Nth compaction (from 1) of a session's event log: the projection just
 * before it is rebuilt from the log (the previous compaction's projection plus
 * what was appended and changed since), so the dropped span is exact. Linear in the log.
 */
export function compactionView(events: readonly StoredEvent[], number: number): CompactionView | undefined {
  let projection: Message[] = [];
  let seen = 0;
  const total = events.filter((event) => event.type === 'compaction.applied').length;
  for (const event of events) {
    if (event.type === 'message.appended') projection.push(event.message);
    else if (event.type === 'reverted') {
      const removed = new Set(event.removedMessageIds);
      projection = projection.filter((message) => !removed.has(message.id));
    } else if (event.type === 'part.updated')
      projection = projection.map((message) =>
        message.id !== event.messageId
          ? message
          : { ...message, parts: message.parts.map((part) => (part.id === event.partId ? event.part : part)) },
      );
    else if (event.type === 'compaction.applied') {
      seen++;
      if (seen === number) return view(projection, event.projection, event.report, number, total);
      projection = [...event.projection];
    }
  }
  return undefined;
}

function view(
  before: readonly Message[],
  after: readonly Message[],
  report: CompactionReport,
  number: number,
  of: number,
): CompactionView {
  const beforeIds = new Set(before.map((message) => message.id));
  const afterIds = new Set(after.map((message) => message.id));
  const summaries = after.filter((message) => message.meta?.summary !== undefined);
  const carrier = summaries.findLast((message) => !beforeIds.has(message.id)) ?? summaries.at(-1);
  const addendum = (suffix: string) => {
    const part = carrier?.parts.find((candidate) => candidate.id.endsWith(suffix));
    return part?.type === 'text' ? part.text : undefined;
  };
  const ledger = addendum(ADDENDUM.ledger);
  const missed = addendum(ADDENDUM.missed);
  const rehydrated = addendum(ADDENDUM.files);
  return {
    number,
    of,
    report,
    summary: carrier === undefined ? '' : summaryTextOf(carrier),
    ...(carrier === undefined ? {} : { summaryId: carrier.id }),
    ...(ledger === undefined ? {} : { ledger }),
    ...(missed === undefined ? {} : { missed }),
    ...(rehydrated === undefined ? {} : { rehydrated }),
    dropped: before.filter((message) => !afterIds.has(message.id)),
  };
}

/** The view as text: the report line, the summary, ctxhost's additions, then the dropped span one line per message. */
export function renderCompactionView(view: CompactionView): string {
  const { report } = view;
  const fidelity = report.fidelity;
  const lines = [
    `compaction ${view.number} of ${view.of}: ${report.engine} (${report.reason}), ${report.tokensBefore.toLocaleString('en-US')} → ${report.tokensAfter.toLocaleString('en-US')} tokens, ${report.messagesBefore} → ${report.messagesAfter} messages`,
    fidelity === undefined
      ? 'fidelity: not recorded (a compaction from before probes were checked)'
      : fidelity.probes === 0
        ? 'fidelity: the dropped span held nothing to probe (no files written, commands, constraints, asks, decisions or identifiers)'
        : `fidelity: ${Math.round(fidelity.score * 100)}% of ${fidelity.probes} probes (the engine's result alone ${Math.round(fidelity.candidateScore * 100)}%; ${fidelity.added} added beside the summary)`,
    ...(fidelity?.missed.length
      ? fidelity.missed.map((probe) => `  missed by the engine: ${probe.kind}: ${probe.text}`)
      : []),
    '',
    `── summary${view.summaryId === undefined ? '' : ` ${view.summaryId}`} ──`,
    view.summary.length > 0 ? view.summary : '(no summary message)',
  ];
  for (const [title, text] of [
    ['added by the probe check', view.missed],
    ['ledger', view.ledger],
    ['files re-read', view.rehydrated],
  ] as const)
    if (text !== undefined) lines.push('', `── ${title} ──`, text);
  lines.push(
    '',
    `── dropped span: ${view.dropped.length} messages (originals in the store; read one with --original <handle>) ──`,
  );
  view.dropped.forEach((message) => {
    const text = [...messageTexts([message])].join(' ').replace(/\s+/g, ' ').trim();
    lines.push(`${message.id}  ${message.role.padEnd(9)} ${text.slice(0, 160)}${text.length > 160 ? '…' : ''}`);
  });
  return `${lines.join('\n')}\n`;
}
