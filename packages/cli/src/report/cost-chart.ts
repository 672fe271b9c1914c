import type { ReplayResult } from '../replay/run-replay.js';
import { niceTicks, polyline, renderAxes, renderLineLabels, xOf, yOf, type ChartFrame } from './chart-frame.js';

export const COST_COLORS = { withCaching: '#2563eb', withoutCaching: '#9ca3af' } as const;

/** Cumulative dollars per model call, with prompt caching as it ran and as if every prompt token were paid at the base input price. */
export function renderCostChart(data: Pick<ReplayResult, 'points'>): string {
  const calls = Math.max(1, data.points.length);
  const last = data.points.at(-1);
  const frame: ChartFrame = {
    width: 960,
    height: 280,
    margin: { top: 16, right: 150, bottom: 42, left: 72 },
    xMin: 0,
    xMax: calls + 1,
    yMax: 0,
  };
  frame.yMax = niceTicks(Math.max(last?.dollarsWithoutCaching ?? 0, last?.dollars ?? 0, 0.01) * 1.05).at(-1)!;
  const axes = renderAxes(frame, {
    xTicks: niceTicks(calls, 8).filter((tick) => tick > 0 && tick <= calls),
    yTicks: niceTicks(frame.yMax).filter((tick) => tick <= frame.yMax),
    formatY: formatDollars,
    xTitle: 'model call',
    yTitle: 'cumulative cost (USD)',
  });
  const start = [xOf(frame, 0), yOf(frame, 0)] as const;
  const without = [
    start,
    ...data.points.map((point) => [xOf(frame, point.call), yOf(frame, point.dollarsWithoutCaching)] as const),
  ];
  const withCaching = [
    start,
    ...data.points.map((point) => [xOf(frame, point.call), yOf(frame, point.dollars)] as const),
  ];
  const labels =
    last === undefined
      ? []
      : [
          {
            y: yOf(frame, last.dollarsWithoutCaching),
            text: `no caching ${formatDollars(last.dollarsWithoutCaching)}`,
            color: '#6b7280',
          },
          {
            y: yOf(frame, last.dollars),
            text: `with caching ${formatDollars(last.dollars)}`,
            color: COST_COLORS.withCaching,
          },
        ];
  const lines = `${polyline(without, `class="cost-line cost-without-caching" fill="none" stroke="${COST_COLORS.withoutCaching}" stroke-width="2" stroke-dasharray="6 4"`)}${polyline(withCaching, `class="cost-line cost-with-caching" fill="none" stroke="${COST_COLORS.withCaching}" stroke-width="2.2"`)}`;
  return `<svg class="chart" id="cost-chart" role="img" aria-label="Cumulative cost with and without prompt caching" viewBox="0 0 ${frame.width} ${frame.height}" width="${frame.width}" height="${frame.height}" xmlns="http://www.w3.org/2000/svg">${axes}${lines}${renderLineLabels(frame, labels)}</svg>`;
}

export function formatDollars(value: number): string {
  if (value !== 0 && Math.abs(value) < 0.01) return `$${value.toFixed(4)}`;
  return `$${value.toFixed(2)}`;
}
