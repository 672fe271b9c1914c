import { describe, expect, it } from 'vitest';
import { escapeHtml, niceTicks, renderLineLabels, xOf, yOf, type ChartFrame } from './chart-frame.js';

const frame: ChartFrame = {
  width: 200,
  height: 120,
  margin: { top: 10, right: 20, bottom: 10, left: 30 },
  xMin: 0,
  xMax: 10,
  yMax: 100,
};

describe('chart frame', () => {
  it.each([
    [1, [0, 0.2, 0.4, 0.6, 0.8, 1]],
    [12_600, [0, 5_000, 10_000, 15_000]],
    [7, [0, 2, 4, 6, 8]],
    [0, [0, 1]],
  ])('niceTicks(%d) runs from 0 past the maximum in round steps', (max, ticks) => {
    expect(niceTicks(max)).toEqual(ticks);
  });

  it('maps data to pixels inside the margins, y growing downwards and clamped at the top', () => {
    expect([xOf(frame, 0), xOf(frame, 10), xOf(frame, 5)]).toEqual([30, 180, 105]);
    expect([yOf(frame, 0), yOf(frame, 100), yOf(frame, 50), yOf(frame, 500)]).toEqual([110, 10, 60, 10]);
  });

  it('moves labels apart so none overlaps, in order of height', () => {
    const svg = renderLineLabels(frame, [
      { y: 50, text: 'b', color: '#000' },
      { y: 45, text: 'a', color: '#000' },
      { y: 90, text: 'c', color: '#000' },
    ]);
    const ys = [...svg.matchAll(/y="([\d.]+)"[^>]*>(\w)</g)].map((match) => [match[2], Number(match[1])]);
    expect(ys).toEqual([
      ['a', 49],
      ['b', 62],
      ['c', 94],
    ]);
  });

  it('escapes text for HTML and attributes', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
