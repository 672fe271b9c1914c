/** The middle and the spread of a figure over eval's samples: mean, sample standard deviation, least and most. */
export interface Spread {
  mean: number;
  /** Sample standard deviation (n − 1); 0 for one sample. */
  stdev: number;
  min: number;
  max: number;
  samples: number;
}

/** The spread of `values`; all zero for none. */
export function spreadOf(values: readonly number[]): Spread {
  const samples = values.length;
  if (samples === 0) return { mean: 0, stdev: 0, min: 0, max: 0, samples };
  const mean = values.reduce((total, value) => total + value, 0) / samples;
  const squares = values.reduce((total, value) => total + (value - mean) ** 2, 0);
  return {
    mean,
    stdev: samples < 2 ? 0 : Math.sqrt(squares / (samples - 1)),
    min: Math.min(...values),
    max: Math.max(...values),
    samples,
  };
}
