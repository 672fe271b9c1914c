import { describe, expect, it } from 'vitest';
import { sessionOrder } from './context-chart.js';
import { renderReport } from './render-report.js';
import { sampleReplayResult } from './sample-replay-result.test-helper.js';

const svgOf = (html: string, id: string): string =>
  html.match(new RegExp(`<svg[^>]*id="${id}"[\\s\\S]*?</svg>`))?.[0] ?? '';
const attribute = (element: string, name: string): number =>
  Number(element.match(new RegExp(` ${name}="([-\\d.]+)"`))?.[1]);
const thresholdY = (svg: string, kind: string): number =>
  attribute(svg.match(new RegExp(`<line class="threshold threshold-${kind}"[^>]*>`))?.[0] ?? '', 'y1');
const polylines = (svg: string, className: string): [number, number][][] =>
  [...svg.matchAll(new RegExp(`<polyline class="${className}[^"]*"[^>]*points="([^"]*)"`, 'g'))].map((match) =>
    match[1]!.split(' ').map((pair) => pair.split(',').map(Number) as [number, number]),
  );

describe('renderReport', () => {
  const html = renderReport({ transcript: 'session.jsonl', result: sampleReplayResult() });
  const context = svgOf(html, 'context-chart');
  const cost = svgOf(html, 'cost-chart');

  it('is one self-contained page: inline style and SVG, nothing fetched, no script', () => {
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<style>');
    expect(html).not.toMatch(/<script|<link|<img|\ssrc=|\shref=|url\(|@import/i);
    expect(html.match(/https?:\/\/[^"\s]*/g)?.every((url) => url === 'http://www.w3.org/2000/svg')).toBe(true);
  });

  it('draws the window, the API limit, the monitor thresholds and the engine threshold at their heights', () => {
    const bottom = 380 - 42;
    const plot = bottom - 16;
    const height = (tokens: number) => bottom - (tokens / 15_000) * plot;
    expect(thresholdY(context, 'window')).toBeCloseTo(height(12_000), 0);
    expect(thresholdY(context, 'limit')).toBeCloseTo(height(10_000), 0);
    expect(thresholdY(context, 'critical')).toBeCloseTo(height(9_600), 0);
    expect(thresholdY(context, 'warn')).toBeCloseTo(height(8_400), 0);
    expect(thresholdY(context, 'engine')).toBeCloseTo(height(6_000), 0);
    expect(context).toContain('>monitor 70%<');
    expect(context).toContain('>compressor 50%<');
  });

  it('draws one line per session with a point per answered call, and marks the compaction, the overflow and the recovery', () => {
    const lines = polylines(context, 'context-line');
    expect(lines.map((line) => line.length)).toEqual([5, 2]);
    const main = lines[0]!;
    expect(main[2]![1]).toBeLessThan(main[0]![1]);
    expect(context.match(/class="mark mark-compaction"/g)).toHaveLength(1);
    expect(context.match(/class="mark mark-overflow"/g)).toHaveLength(1);
    expect(context.match(/class="mark mark-recovery"/g)).toHaveLength(1);
    expect(context).toContain('11,500 → 6,500 estimated tokens');
  });

  it('draws cumulative cost with and without caching, the latter above', () => {
    const [without, withCaching] = [
      polylines(cost, 'cost-line cost-without-caching')[0]!,
      polylines(cost, 'cost-line cost-with-caching')[0]!,
    ];
    expect(without).toHaveLength(8);
    expect(withCaching).toHaveLength(8);
    expect(without.at(-1)![1]).toBeLessThan(withCaching.at(-1)![1]);
    expect(cost).toMatch(/>no caching \$0\.14</);
  });

  it('lists the compactions in a table and escapes every text from the transcript', () => {
    const rows = html.match(/<table id="compactions">[\s\S]*?<\/table>/)?.[0].match(/<tr[ >]/g);
    expect(rows).toHaveLength(3);
    expect(html).toContain('11,500</td><td class="number">6,500</td><td class="number">5,000 (43%)');
    expect(html).toContain('sub&lt;1&gt;');
    expect(html).not.toContain('sub<1>');
  });

  it('gives each compaction its fidelity: the probe score, the engine alone, the ledger, and the probes it missed', () => {
    expect(html).toContain('<tr id="compaction-1">');
    expect(html).toContain('100% of 8 probes (engine alone 75%); ledger 120 tokens');
    expect(html).toContain('<li>constraint: never touch &lt;main&gt;</li><li>file: src/a.ts</li>');
    expect(html).toContain('ctxhost show … --compaction 1');
  });

  it('is a pure function of its input', () => {
    expect(renderReport({ transcript: 'session.jsonl', result: sampleReplayResult() })).toBe(html);
  });

  it('leaves out the monitor lines when the monitor is disabled, the limit line when it is the window, and says when nothing was compacted', () => {
    const quiet = renderReport({
      transcript: 'x.jsonl',
      result: sampleReplayResult({ thresholds: { engineAt: 0.5 }, contextLimit: 12_000, events: [] }),
    });
    const chart = svgOf(quiet, 'context-chart');
    expect(chart).not.toMatch(/threshold-(warn|critical|limit)/);
    expect(chart).toMatch(/threshold-window/);
    expect(quiet).toContain('No compaction ran');
    expect(quiet).not.toContain('Overflows and recoveries');
  });
});

describe('sessionOrder', () => {
  it('puts the main thread first, then the subagents by number', () => {
    const points = ['main', 'main/subagent-10', 'main/subagent-2', 'main'].map((sessionId, index) => ({
      call: index + 1,
      sessionId,
      model: 'claude-sonnet-4-6',
      contextTokens: 1,
      dollars: 0,
      dollarsWithoutCaching: 0,
    }));
    expect(sessionOrder({ points })).toEqual(['main', 'main/subagent-2', 'main/subagent-10']);
  });
});
