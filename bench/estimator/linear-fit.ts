/** A sample for a linear estimate: tokens ≈ Σ coefficient × feature. */
export interface FitSample {
  features: readonly number[];
  realTokens: number;
}

export function applyFit(coefficients: readonly number[], features: readonly number[]): number {
  return features.reduce((sum, value, index) => sum + value * coefficients[index]!, 0);
}

/**
 * Minimises the sum of absolute relative errors (the median error is what is reported,
 * and least squares lets one delta with unlogged content pull every weight): weighted
 * least squares re-weighted by 1/|error| (IRLS), a small ridge keeping a feature absent
 * from the sample at 0 instead of a singular system.
 */
export function fitLeastRelativeError(samples: readonly FitSample[], iterations = 30): number[] {
  let coefficients = solveWeighted(
    samples,
    samples.map(() => 1),
  );
  for (let iteration = 0; iteration < iterations; iteration++) {
    const weights = samples.map(
      (sample) =>
        1 / Math.max(0.01, Math.abs(applyFit(coefficients, sample.features) - sample.realTokens) / sample.realTokens),
    );
    coefficients = solveWeighted(samples, weights);
  }
  return coefficients;
}

function solveWeighted(samples: readonly FitSample[], sampleWeights: readonly number[], ridge = 1e-3): number[] {
  const size = samples[0]!.features.length;
  const normal = Array.from({ length: size }, () => new Array<number>(size + 1).fill(0));
  samples.forEach((sample, sampleIndex) => {
    const row = sample.features.map((value) => value / sample.realTokens);
    const weight = sampleWeights[sampleIndex]!;
    for (let left = 0; left < size; left++) {
      for (let right = 0; right < size; right++) normal[left]![right]! += weight * row[left]! * row[right]!;
      normal[left]![size]! += weight * row[left]!;
    }
  });
  for (let index = 0; index < size; index++) normal[index]![index]! += ridge;
  return gaussJordan(normal);
}

function gaussJordan(matrix: number[][]): number[] {
  const size = matrix.length;
  for (let column = 0; column < size; column++) {
    let pivot = column;
    for (let row = column + 1; row < size; row++)
      if (Math.abs(matrix[row]![column]!) > Math.abs(matrix[pivot]![column]!)) pivot = row;
    [matrix[column], matrix[pivot]] = [matrix[pivot]!, matrix[column]!];
    const lead = matrix[column]![column]! || 1e-12;
    for (let row = 0; row < size; row++) {
      if (row === column) continue;
      const factor = matrix[row]![column]! / lead;
      for (let cell = column; cell <= size; cell++) matrix[row]![cell]! -= factor * matrix[column]![cell]!;
    }
  }
  return matrix.map((row, index) => row[size]! / (row[index]! || 1e-12));
}
