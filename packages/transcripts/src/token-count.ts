/** The largest token count a transcript may report: more than any window, far below where arithmetic loses whole numbers. */
export const MAX_REPORTED_TOKENS = 1_000_000_000_000;

/**
 * A token count as a transcript reported it, made safe to add and compare: a whole number from 0 to
 * MAX_REPORTED_TOKENS. Anything else (a string, a negative, a fraction, 1e400 read as Infinity) is read as
 * the nearest such number, or 0 when it is no number at all, so one odd count never fails the whole file.
 */
export function reportedTokens(value: unknown): number {
  if (typeof value !== 'number' || Number.isNaN(value)) return 0;
  return Math.min(MAX_REPORTED_TOKENS, Math.max(0, Math.floor(value)));
}
