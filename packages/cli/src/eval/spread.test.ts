import { describe, expect, it } from 'vitest';
import { spreadOf } from './spread.js';

describe('spreadOf', () => {
  it('gives mean, sample standard deviation, least and most', () => {
    expect(spreadOf([2, 4, 4, 4, 5, 5, 7, 9])).toEqual({
      mean: 5,
      stdev: expect.closeTo(2.138, 3) as number,
      min: 2,
      max: 9,
      samples: 8,
    });
    expect(spreadOf([3])).toEqual({ mean: 3, stdev: 0, min: 3, max: 3, samples: 1 });
    expect(spreadOf([])).toEqual({ mean: 0, stdev: 0, min: 0, max: 0, samples: 0 });
  });
});
