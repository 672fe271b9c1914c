import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runSoak } from './run-soak.js';

const corpus = fileURLToPath(new URL('../../test/fixtures/corpus/', import.meta.url));

/** The short soak (the full one is `pnpm soak`, figures in docs/reliability.md). */
describe('soak: 50 agent sessions with seeded faults, through the real SDK and the simulator', () => {
  it(
    'sends nothing the API rejects for its shape, loses no original, and ends every session completed or with a clear error',
    { timeout: 120_000 },
    async () => {
      const report = await runSoak({
        sessions: 50,
        seed: 7,
        faultRate: 0.08,
        overflowRate: 0.3,
        concurrency: 25,
        maxPrefix: 80,
        corpus,
      });
      const context = JSON.stringify(report, null, 2);
      expect(report.rejectedForShape, context).toBe(0);
      expect(report.unretrievableOriginals, context).toBe(0);
      expect(report.sessionsUnclear, context).toEqual({});
      expect(report.hookFailures, context).toEqual({});
      const ended = Object.values(report.sessionsEndedWithError).reduce((sum, n) => sum + n, 0);
      expect(report.sessionsCompleted + ended, context).toBe(50);
      for (const reason of Object.keys(report.sessionsEndedWithError))
        expect(reason, context).toMatch(
          /^(CTXHOST_[A-Z_]+|context_overflow|output_budget_overflow|request_too_large|rate_limited|overloaded|network|server|max_turns): \S/,
        );
      // The faults and overflows really happened, and most sessions still answered.
      expect(report.simulator.requests, context).toBeGreaterThan(100);
      expect(
        Object.values(report.simulator.faults).reduce((sum, n) => sum + n, 0),
        context,
      ).toBeGreaterThan(0);
      expect(report.recoveries, context).toBeGreaterThan(0);
      expect(report.partsChecked, context).toBeGreaterThan(500);
      expect(report.sessionsCompleted, context).toBeGreaterThan(25);
    },
  );
});
