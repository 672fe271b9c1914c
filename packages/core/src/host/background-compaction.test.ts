import { describe, expect, it } from 'vitest';
import { recordGrowth, thresholdNear } from './background-compaction.js';

describe('thresholdNear', () => {
  it('prepares when the largest recent growth reaches the threshold within two requests', () => {
    expect(thresholdNear(90_000, 100_000, [4_000, 5_000])).toBe(true);
    expect(thresholdNear(88_000, 100_000, [4_000, 5_000])).toBe(false);
    // A session growing fast is prepared for earlier than the old fixed 85% line; one growing slowly later.
    expect(thresholdNear(70_000, 100_000, [16_000])).toBe(true);
    expect(thresholdNear(95_000, 100_000, [1_000])).toBe(false);
  });

  it('falls back to 85% of the threshold before any growth is known, and never starts under half of it or past it', () => {
    expect(thresholdNear(86_000, 100_000, [])).toBe(true);
    expect(thresholdNear(84_000, 100_000, [])).toBe(false);
    expect(thresholdNear(49_000, 100_000, [60_000])).toBe(false);
    expect(thresholdNear(100_000, 100_000, [1_000])).toBe(false);
  });
});

describe('recordGrowth', () => {
  it('keeps the last three growths and ignores a drop (a compaction)', () => {
    const state: { promptTokens?: number; growths: number[] } = { growths: [] };
    for (const tokens of [1_000, 3_000, 4_000, 2_000, 2_500, 5_000]) recordGrowth(state, tokens);
    expect(state.growths).toEqual([1_000, 500, 2_500]);
    expect(state.promptTokens).toBe(5_000);
  });
});
