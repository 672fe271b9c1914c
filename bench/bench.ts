/**
 * What a benchmark is: a title and a `run` that returns rows (printed as a
 * table by `pnpm bench`, written to results.json). `run('smallest')` is the
 * least work that still goes through every path the bench measures: the bench
 * test runs every bench that way inside `pnpm test`, so `pnpm bench` cannot
 * break unnoticed. `run('full')` makes the figures the READMEs quote.
 */
export type BenchSize = 'smallest' | 'full';

export interface Bench {
  /** One line: what is measured, against what. */
  title: string;
  run(size: BenchSize): Promise<object[]>;
}
