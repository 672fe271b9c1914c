import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTranscript } from '@ctxhost/transcripts';
import { renderReport } from '../packages/cli/src/report/render-report.js';
import { runReplay } from '../packages/cli/src/replay/run-replay.js';
import { chromiumInstalled, runChromium } from './support/headless-chromium.js';

const transcript = fileURLToPath(
  new URL('./fixtures/corpus/claude-code/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl', import.meta.url),
);

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
interface Geometry {
  charts: (Box & { id: string; lines: Box[]; thresholds: (Box & { kind: string })[]; marks: number })[];
  rows: number;
}

/**
 * Measures what Chromium laid out: each chart's box, each drawn line's box, the
 * threshold lines and the marks. The report has no script; this one is added
 * only to the copy the test opens, and writes its findings into the DOM.
 */
const MEASURE = `<script>
const box = (element) => { const r = element.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; };
const charts = [...document.querySelectorAll('svg.chart')].map((svg) => ({
  id: svg.id, ...box(svg),
  lines: [...svg.querySelectorAll('polyline')].map(box),
  thresholds: [...svg.querySelectorAll('line.threshold')].map((line) => ({ kind: line.getAttribute('class').replace('threshold threshold-', ''), ...box(line) })),
  marks: svg.querySelectorAll('g.mark').length,
}));
const out = document.createElement('pre');
out.id = 'geometry';
out.textContent = JSON.stringify({ charts, rows: document.querySelectorAll('#compactions tbody tr').length });
document.body.append(out);
</script>`;

describe.skipIf(!chromiumInstalled())('the replay report in headless Chromium', () => {
  let folder: string;
  let geometry: Geometry;
  let screenshot: Buffer;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'ctxhost-report-chromium-'));
    const { messages } = await readTranscript(transcript, { includeSidechains: true });
    const html = renderReport({
      transcript: 'session.jsonl',
      result: await runReplay({ messages, window: 8_000, contextLimit: 6_500 }),
    });
    const page = join(folder, 'report.html');
    const measured = join(folder, 'measured.html');
    await writeFile(page, html);
    await writeFile(measured, html.replace('</body>', `${MEASURE}</body>`));
    const dom = await runChromium(measured, ['--window-size=1000,1400', '--dump-dom']);
    const json = /<pre id="geometry">([^<]*)<\/pre>/.exec(dom)?.[1];
    geometry = JSON.parse((json ?? '{}').replace(/&quot;/g, '"').replace(/&amp;/g, '&')) as Geometry;
    await runChromium(page, ['--window-size=1000,1400', `--screenshot=${join(folder, 'report.png')}`]);
    screenshot = await readFile(join(folder, 'report.png'));
  }, 90_000);
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('lays out both charts at a readable size, one under the other', () => {
    expect(geometry.charts.map((chart) => chart.id)).toEqual(['context-chart', 'cost-chart']);
    for (const chart of geometry.charts) {
      expect(chart.width).toBeGreaterThan(600);
      expect(chart.height).toBeGreaterThan(150);
    }
    expect(geometry.charts[1]!.y).toBeGreaterThan(geometry.charts[0]!.y + geometry.charts[0]!.height);
  });

  it('draws the context line of each session and the cost lines with real extent, inside their chart', () => {
    const [context, cost] = geometry.charts;
    expect(context!.lines).toHaveLength(3);
    expect(cost!.lines).toHaveLength(2);
    for (const chart of [context!, cost!]) {
      for (const line of chart.lines) {
        expect(line.width).toBeGreaterThan(0);
        expect(line.x).toBeGreaterThanOrEqual(chart.x);
        expect(line.x + line.width).toBeLessThanOrEqual(chart.x + chart.width);
        expect(line.y + line.height).toBeLessThanOrEqual(chart.y + chart.height);
      }
    }
    expect(Math.max(...context!.lines.map((line) => line.height))).toBeGreaterThan(20);
    expect(cost!.lines.every((line) => line.height > 10)).toBe(true);
  });

  it('draws the window above the limit, the monitor thresholds and the engine threshold, and marks the events', () => {
    const [context] = geometry.charts;
    const y = (kind: string) => context!.thresholds.find((line) => line.kind === kind)?.y ?? Number.NaN;
    expect(context!.thresholds.map((line) => line.kind).sort()).toEqual([
      'critical',
      'engine',
      'limit',
      'warn',
      'window',
    ]);
    expect(y('window')).toBeLessThan(y('limit'));
    expect(y('limit')).toBeLessThan(y('critical'));
    expect(y('critical')).toBeLessThan(y('warn'));
    expect(y('warn')).toBeLessThan(y('engine'));
    expect(context!.marks).toBeGreaterThanOrEqual(3);
    expect(geometry.rows).toBeGreaterThanOrEqual(1);
  });

  it('renders a screenshot that is a real PNG', () => {
    expect(screenshot.subarray(1, 4).toString()).toBe('PNG');
    expect(screenshot.readUInt32BE(16)).toBe(1000);
    expect(screenshot.length).toBeGreaterThan(30_000);
  });
});
