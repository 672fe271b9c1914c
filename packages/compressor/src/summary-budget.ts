import { COMPRESSOR } from './constants.js';

/**
 * Tokens the summary may take: middle × 0.20, at least 2,000, at most
 * min(window × 0.05, 12,000). On windows under 40k the upper bound is below
 * 2,000; the upper bound wins, so a summary never takes more than 5% of the window.
 */
export function summaryBudget(middleTokens: number, contextWindow: number): number {
  const upper = Math.min(contextWindow * COMPRESSOR.maxSummaryWindowFraction, COMPRESSOR.maxSummaryTokens);
  return Math.floor(Math.min(Math.max(middleTokens * COMPRESSOR.summaryRatio, COMPRESSOR.minSummaryTokens), upper));
}
