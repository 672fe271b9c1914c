import { describe, expect, it } from 'vitest';
import { createThresholdLatch } from './threshold-latch.js';

describe('createThresholdLatch', () => {
  it('fires once at the threshold and not below it', () => {
    const latch = createThresholdLatch(0.7);
    expect(latch.cross(0.699)).toBe(false);
    expect(latch.cross(0.7)).toBe(true);
    expect(latch.cross(0.75)).toBe(false);
  });

  it('re-arms only once the value is back under the threshold', () => {
    const latch = createThresholdLatch(0.8);
    latch.cross(0.9);
    expect(latch.rearm(0.85)).toBe(false);
    expect(latch.rearm(0.5)).toBe(true);
    expect(latch.cross(0.81)).toBe(true);
  });
});
