import type { ReplayEvent } from '../replay/replay-recorder.js';
import type { ReplayResult } from '../replay/run-replay.js';
import {
  escapeHtml,
  niceTicks,
  polyline,
  renderAxes,
  renderLineLabels,
  xOf,
  yOf,
  type ChartFrame,
  type LineLabel,
} from './chart-frame.js';

export const SESSION_COLORS = ['#2563eb', '#0d9488', '#ca8a04', '#db2777', '#4b5563', '#65a30d'] as const;
export const MARK_COLORS = {
  window: '#111827',
  limit: '#dc2626',
  warn: '#d97706',
  critical: '#ea580c',
  engine: '#7c3aed',
  compaction: '#7c3aed',
  overflow: '#dc2626',
  recovery: '#16a34a',
} as const;

type ContextData = Pick<
  ReplayResult,
  'points' | 'events' | 'window' | 'contextLimit' | 'thresholds' | 'peak' | 'engine'
>;

/** The session that answered first (the main thread), then the others by name (`subagent-2` before `subagent-10`): the legend's order and the colours'. */
export function sessionOrder(data: Pick<ReplayResult, 'points'>): string[] {
  const [main, ...others] = new Set(data.points.map((point) => point.sessionId));
  return main === undefined
    ? []
    : [main, ...others.sort((left, right) => left.localeCompare(right, 'en', { numeric: true }))];
}

export function sessionColor(order: readonly string[], sessionId: string): string {
  const index = Math.max(0, order.indexOf(sessionId));
  return SESSION_COLORS[index % SESSION_COLORS.length]!;
}

/** Context tokens per model call (one line per session) against the window and the thresholds, with each compaction, overflow and recovery marked. */
export function renderContextChart(data: ContextData): string {
  const calls = Math.max(1, data.points.length);
  const frame: ChartFrame = {
    width: 960,
    height: 380,
    margin: { top: 16, right: 150, bottom: 42, left: 72 },
    xMin: 0,
    xMax: calls + 1,
    yMax: 0,
  };
  frame.yMax = niceTicks(Math.max(data.window, data.contextLimit, data.peak) * 1.05).at(-1)!;
  const yTicks = niceTicks(frame.yMax).filter((tick) => tick <= frame.yMax);
  const axes = renderAxes(frame, {
    xTicks: niceTicks(calls, 8).filter((tick) => tick > 0 && tick <= calls),
    yTicks,
    formatY: (value) => value.toLocaleString('en-US'),
    xTitle: 'model call',
    yTitle: 'context tokens (as the API reported)',
  });
  const { lines, labels } = thresholdLines(frame, data);
  const order = sessionOrder(data);
  const series = order.map((sessionId) => {
    const color = sessionColor(order, sessionId);
    const points = data.points
      .filter((point) => point.sessionId === sessionId)
      .map((point) => [xOf(frame, point.call), yOf(frame, point.contextTokens)] as const);
    const dots = points.map(([x, y]) => `<circle cx="${x}" cy="${y}" r="2.2" fill="${color}"/>`).join('');
    return `<g class="series" data-session="${escapeHtml(sessionId)}">${polyline(points, `class="context-line" fill="none" stroke="${color}" stroke-width="1.8"`)}${dots}</g>`;
  });
  const marks = data.events.map((event) => eventMark(frame, event)).join('');
  return `<svg class="chart" id="context-chart" role="img" aria-label="Context tokens per model call against the window" viewBox="0 0 ${frame.width} ${frame.height}" width="${frame.width}" height="${frame.height}" xmlns="http://www.w3.org/2000/svg">${axes}${lines}${series.join('')}${marks}${renderLineLabels(frame, labels)}</svg>`;
}

function thresholdLines(frame: ChartFrame, data: ContextData): { lines: string; labels: LineLabel[] } {
  const window = data.window;
  const candidates: { value: number | undefined; text: string; color: string; dash: string; kind: string }[] = [
    {
      value: window,
      text: `window ${window.toLocaleString('en-US')}`,
      color: MARK_COLORS.window,
      dash: '',
      kind: 'window',
    },
    {
      value: data.contextLimit === window ? undefined : data.contextLimit,
      text: `API limit ${data.contextLimit.toLocaleString('en-US')}`,
      color: MARK_COLORS.limit,
      dash: '2 3',
      kind: 'limit',
    },
    {
      value: fraction(window, data.thresholds.criticalAt),
      text: `monitor ${percent(data.thresholds.criticalAt)}`,
      color: MARK_COLORS.critical,
      dash: '6 4',
      kind: 'critical',
    },
    {
      value: fraction(window, data.thresholds.warnAt),
      text: `monitor ${percent(data.thresholds.warnAt)}`,
      color: MARK_COLORS.warn,
      dash: '6 4',
      kind: 'warn',
    },
    {
      value: fraction(window, data.thresholds.engineAt),
      text: `${data.engine} ${percent(data.thresholds.engineAt)}`,
      color: MARK_COLORS.engine,
      dash: '10 4 2 4',
      kind: 'engine',
    },
  ];
  const shown = candidates.filter(
    (candidate): candidate is typeof candidate & { value: number } => candidate.value !== undefined,
  );
  const lines = shown
    .map((line) => {
      const y = yOf(frame, line.value);
      return `<line class="threshold threshold-${line.kind}" x1="${frame.margin.left}" y1="${y}" x2="${frame.width - frame.margin.right}" y2="${y}" stroke="${line.color}" stroke-width="1.4"${line.dash === '' ? '' : ` stroke-dasharray="${line.dash}"`}/>`;
    })
    .join('');
  return { lines, labels: shown.map((line) => ({ y: yOf(frame, line.value), text: line.text, color: line.color })) };
}

function eventMark(frame: ChartFrame, event: ReplayEvent): string {
  const x =
    event.kind === 'recovery' && event.answeredAt !== undefined
      ? xOf(frame, event.answeredAt)
      : xOf(frame, event.call + 0.5);
  const top = frame.margin.top;
  const bottom = frame.height - frame.margin.bottom;
  if (event.kind === 'compaction') {
    const before = yOf(frame, event.report.tokensBefore);
    const after = yOf(frame, event.report.tokensAfter);
    const title = `compaction after call ${event.call} (${event.sessionId}): ${event.report.tokensBefore.toLocaleString('en-US')} → ${event.report.tokensAfter.toLocaleString('en-US')} estimated tokens`;
    return `<g class="mark mark-compaction"><title>${escapeHtml(title)}</title><line x1="${x}" y1="${before}" x2="${x}" y2="${after}" stroke="${MARK_COLORS.compaction}" stroke-width="1.5"/><path d="M${x - 4},${after - 6} L${x + 4},${after - 6} L${x},${after} Z" fill="${MARK_COLORS.compaction}"/></g>`;
  }
  if (event.kind === 'overflow') {
    return `<g class="mark mark-overflow"><title>${escapeHtml(`overflow after call ${event.call} (${event.sessionId}): ${event.message}`)}</title><line x1="${x}" y1="${top}" x2="${x}" y2="${bottom}" stroke="${MARK_COLORS.overflow}" stroke-width="1.5" stroke-dasharray="3 3"/><path d="M${x - 5},${top + 2} L${x + 5},${top + 12} M${x + 5},${top + 2} L${x - 5},${top + 12}" stroke="${MARK_COLORS.overflow}" stroke-width="2.2"/></g>`;
  }
  if (event.kind === 'recovery' || event.kind === 'recovery-failed') {
    const color = event.kind === 'recovery' ? MARK_COLORS.recovery : MARK_COLORS.overflow;
    return `<g class="mark mark-${event.kind}"><title>${escapeHtml(`${event.kind === 'recovery' ? `recovered: answered again at call ${event.answeredAt ?? event.call}` : `recovery failed after call ${event.call}`} (${event.sessionId}): ${event.text}`)}</title><line x1="${x}" y1="${top}" x2="${x}" y2="${bottom}" stroke="${color}" stroke-width="1.5"/><circle cx="${x}" cy="${top + 20}" r="5.5" fill="${color}"/></g>`;
  }
  return '';
}

function fraction(window: number, value: number | undefined): number | undefined {
  return value === undefined ? undefined : window * value;
}

function percent(value: number | undefined): string {
  return `${Math.round((value ?? 0) * 100)}%`;
}
