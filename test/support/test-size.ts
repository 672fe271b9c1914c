/**
 * Sizes for property runs and other sweeps. `pnpm test` runs a fifth of each
 * (enough to catch a regression in a run a person waits for); `pnpm test:full`
 * sets CTXHOST_TEST_FULL=1 and runs the full sizes written in the tests.
 */
export const FULL_TEST = process.env.CTXHOST_TEST_FULL === '1';

/** `full` under `pnpm test:full`; a fifth of it (at least `minimum`) otherwise. */
export function testSize(full: number, minimum = 20): number {
  return FULL_TEST ? full : Math.min(full, Math.max(minimum, Math.round(full / 5)));
}
