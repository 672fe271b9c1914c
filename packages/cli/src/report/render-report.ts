import type { ReplayResult } from '../replay/run-replay.js';
import { escapeHtml } from './chart-frame.js';
import { renderCompactionTable } from './compaction-table.js';
import { MARK_COLORS, renderContextChart, sessionColor, sessionOrder } from './context-chart.js';
import { COST_COLORS, formatDollars, renderCostChart } from './cost-chart.js';
import { REPORT_STYLE } from './report-style.js';

export interface ReportInput {
  /** The transcript as the user named it. */
  transcript: string;
  result: ReplayResult;
}

/** The replay report: one self-contained HTML page (inline CSS and SVG, no script, nothing fetched). Pure: the same input gives the same page. */
export function renderReport({ transcript, result }: ReportInput): string {
  const title = `ctxhost replay: ${baseName(transcript)}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${REPORT_STYLE}</style></head>
<body><main>
<header><h1>${escapeHtml(title)}</h1><p class="facts">${escapeHtml(facts(transcript, result))}</p></header>
${renderCards(result)}
<section><h2>Context per model call</h2>${renderContextLegend(result)}${renderContextChart(result)}</section>
<section><h2>Cumulative cost</h2><p class="legend">${swatch(COST_COLORS.withCaching, 'with prompt caching (as replayed)')}${swatch(COST_COLORS.withoutCaching, 'without caching (every prompt token at the base input price)', true)}</p>${renderCostChart(result)}</section>
<section><h2>Compactions</h2>${renderCompactionTable(result.events)}</section>
${renderIncidents(result)}
<footer>Written by <code>ctxhost replay</code>. Context tokens are the prompt sizes the simulated API reported; compaction figures are the host's estimates. The summarizer's own calls are not in the cost: ${escapeHtml(summarizerNote(result))}</footer>
</main></body></html>
`;
}

function facts(transcript: string, result: ReplayResult): string {
  return [
    transcript,
    `model ${result.model}`,
    `window ${count(result.window)} tokens`,
    ...(result.contextLimit === result.window ? [] : [`API limit ${count(result.contextLimit)}`]),
    `engine ${result.engine}`,
    `summarizer ${result.summarizer}`,
    `${result.answeredTurns} of ${result.recordedTurns} recorded assistant turns replayed in ${result.sessions} session${result.sessions === 1 ? '' : 's'}`,
  ].join(' · ');
}

function renderCards(result: ReplayResult): string {
  const cards: [string, string, string][] = [
    ['peak context', count(result.peak), `${Math.round((result.peak / result.window) * 100)}% of the window`],
    ['compactions', String(result.compactions), `engine ${result.engine}`],
    [
      'overflows',
      String(result.overflows),
      `${result.overflows === result.incidents ? '' : `${result.incidents} incident${result.incidents === 1 ? '' : 's'}, `}${result.recoveries} recovered${result.failedRecoveries > 0 ? `, ${result.failedRecoveries} not` : ''}`,
    ],
    [
      'cost with caching',
      formatDollars(result.cost.dollars),
      `${Math.round(result.cost.cacheHitRatio * 100)}% of prompt tokens read from cache`,
    ],
    [
      'cost without caching',
      formatDollars(result.cost.withoutCaching),
      `caching saved ${formatDollars(result.cost.dollarsSaved)}`,
    ],
    [
      'tokens',
      count(result.cost.tokens.prompt + result.cost.tokens.output),
      `${count(result.cost.tokens.prompt)} prompt, ${count(result.cost.tokens.output)} output`,
    ],
  ];
  return `<section class="cards">${cards.map(([label, value, note]) => `<div class="card"><div class="label">${escapeHtml(label)}</div><div class="value">${escapeHtml(value)}</div><div class="note">${escapeHtml(note)}</div></div>`).join('')}</section>`;
}

function renderContextLegend(result: ReplayResult): string {
  const order = sessionOrder(result);
  const sessions = order.map((sessionId, index) =>
    swatch(sessionColor(order, sessionId), index === 0 ? `${sessionId} (main thread)` : sessionId),
  );
  const marks = [
    `<span class="key"><svg width="14" height="12"><path d="M3,2 L11,2 L7,10 Z" fill="${MARK_COLORS.compaction}"/></svg>compaction (estimate before → after)</span>`,
    `<span class="key"><svg width="14" height="12"><path d="M2,1 L12,11 M12,1 L2,11" stroke="${MARK_COLORS.overflow}" stroke-width="2"/></svg>overflow rejected by the API</span>`,
    `<span class="key"><svg width="14" height="12"><circle cx="7" cy="6" r="5" fill="${MARK_COLORS.recovery}"/></svg>recovered</span>`,
  ];
  return `<p class="legend">${sessions.join('')}${marks.join('')}</p>`;
}

function renderIncidents(result: ReplayResult): string {
  const incidents = result.events.filter(
    (event) =>
      event.kind === 'overflow' ||
      event.kind === 'error' ||
      event.kind === 'recovery' ||
      event.kind === 'recovery-failed',
  );
  if (incidents.length === 0) return '';
  const items = incidents.map((event) => {
    const text =
      event.kind === 'overflow' || event.kind === 'error'
        ? `${event.kind} (${event.errorKind}): ${event.message}`
        : `${event.kind === 'recovery' ? 'recovered' : 'not recovered'}: ${event.text}`;
    return `<li class="incident incident-${event.kind}"><span class="where">after call ${event.call}, ${escapeHtml(event.sessionId)}</span> ${escapeHtml(text)}</li>`;
  });
  return `<section><h2>Overflows and recoveries</h2><ul class="incidents">${items.join('')}</ul></section>`;
}

function swatch(color: string, text: string, dashed = false): string {
  return `<span class="key"><svg width="22" height="12"><line x1="1" y1="6" x2="21" y2="6" stroke="${color}" stroke-width="3"${dashed ? ' stroke-dasharray="5 3"' : ''}/></svg>${escapeHtml(text)}</span>`;
}

function baseName(path: string): string {
  return path.split(/[\\/]/).at(-1) ?? path;
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}

function summarizerNote(result: ReplayResult): string {
  const spent = result.summarizerCost;
  if (spent === undefined) return 'they went to the real API (--live).';
  return `${spent.calls} calls, ${spent.promptTokens.toLocaleString('en-US')} prompt and ${spent.outputTokens.toLocaleString('en-US')} output tokens, ${formatDollars(spent.dollars)} more.`;
}
