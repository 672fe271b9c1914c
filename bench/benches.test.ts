import { describe, expect, it } from 'vitest';
import { BENCHES } from './benches.js';

/**
 * Every bench of `pnpm bench`, at its smallest size, so a bench that no longer
 * runs (a model the simulator refuses, an API that moved) fails the tests
 * instead of the next person's `pnpm bench`. Rows are checked for shape only:
 * bench figures are reported, never asserted.
 */
describe('pnpm bench at its smallest size', () => {
  for (const [name, bench] of Object.entries(BENCHES)) {
    it(name, { timeout: 120_000 }, async () => {
      const rows = await bench.run('smallest');
      expect(rows.length, name).toBeGreaterThan(0);
      for (const row of rows)
        for (const [column, value] of Object.entries(row))
          expect(typeof value === 'number' && !Number.isFinite(value), `${name}: ${column} is ${String(value)}`).toBe(
            false,
          );
    });
  }
});
