/** The drawing area of one SVG chart: its size, margins and the data ranges it maps. */
export interface ChartFrame {
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
  xMin: number;
  xMax: number;
  yMax: number;
}

export interface LineLabel {
  y: number;
  text: string;
  color: string;
}

/** Maps a data x to a pixel x inside the frame. */
export function xOf(frame: ChartFrame, value: number): number {
  const span = frame.xMax - frame.xMin || 1;
  return round(
    frame.margin.left + ((value - frame.xMin) / span) * (frame.width - frame.margin.left - frame.margin.right),
  );
}

/** Maps a data y (0 at the bottom) to a pixel y inside the frame. */
export function yOf(frame: ChartFrame, value: number): number {
  const plot = frame.height - frame.margin.top - frame.margin.bottom;
  return round(frame.margin.top + plot - (Math.min(value, frame.yMax) / (frame.yMax || 1)) * plot);
}

/** Round tick values from 0 to at least `max`: steps of 1, 2 or 5 times a power of ten. */
export function niceTicks(max: number, count = 5): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 5, 10].find((multiple) => multiple * power >= rough) ?? 10) * power;
  const ticks: number[] = [];
  for (let value = 0; value < max + step; value += step) ticks.push(Number(value.toPrecision(12)));
  return ticks;
}

/** Grid lines, tick labels and axis titles for a frame. */
export function renderAxes(
  frame: ChartFrame,
  options: { xTicks: number[]; yTicks: number[]; formatY: (value: number) => string; xTitle: string; yTitle: string },
): string {
  const { margin, width, height } = frame;
  const bottom = height - margin.bottom;
  const parts = options.yTicks.map((tick) => {
    const y = yOf(frame, tick);
    return `<line class="grid" x1="${margin.left}" y1="${y}" x2="${width - margin.right}" y2="${y}"/><text class="tick" x="${margin.left - 6}" y="${y + 4}" text-anchor="end">${escapeHtml(options.formatY(tick))}</text>`;
  });
  for (const tick of options.xTicks) {
    parts.push(`<text class="tick" x="${xOf(frame, tick)}" y="${bottom + 16}" text-anchor="middle">${tick}</text>`);
  }
  parts.push(`<line class="axis" x1="${margin.left}" y1="${bottom}" x2="${width - margin.right}" y2="${bottom}"/>`);
  parts.push(`<line class="axis" x1="${margin.left}" y1="${margin.top}" x2="${margin.left}" y2="${bottom}"/>`);
  parts.push(
    `<text class="axis-title" x="${(margin.left + width - margin.right) / 2}" y="${height - 4}" text-anchor="middle">${escapeHtml(options.xTitle)}</text>`,
  );
  parts.push(
    `<text class="axis-title" transform="translate(14 ${(margin.top + bottom) / 2}) rotate(-90)" text-anchor="middle">${escapeHtml(options.yTitle)}</text>`,
  );
  return parts.join('');
}

/** Labels in the right margin, moved apart vertically so none overlaps another. */
export function renderLineLabels(frame: ChartFrame, labels: readonly LineLabel[], gap = 13): string {
  const sorted = [...labels].sort((left, right) => left.y - right.y);
  const placed: number[] = [];
  for (const label of sorted) placed.push(Math.max(label.y, (placed.at(-1) ?? -Infinity) + gap));
  const x = frame.width - frame.margin.right + 6;
  return sorted
    .map(
      (label, index) =>
        `<text class="line-label" x="${x}" y="${placed[index]! + 4}" fill="${label.color}">${escapeHtml(label.text)}</text>`,
    )
    .join('');
}

export function polyline(points: readonly (readonly [number, number])[], attributes: string): string {
  return `<polyline ${attributes} points="${points.map(([x, y]) => `${x},${y}`).join(' ')}"/>`;
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
