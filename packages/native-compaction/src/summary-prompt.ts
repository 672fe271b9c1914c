import { summaryInstructions } from '@ctxhost/compressor';

/** Summary length ctxhost asks a provider's compaction for when nothing says otherwise. */
export const NATIVE_SUMMARY_BUDGET_TOKENS = 4_000;

/**
 * The complete summary prompt sent as Anthropic's `instructions` (threshold and
 * on-demand compaction): Anthropic's documentation says they replace its
 * default summarization prompt entirely, so a bare focus sentence would leave
 * the server with no template at all. This is ctxhost's own structured
 * template (the compressor's) with the user's focus in it.
 */
export function nativeSummaryPrompt(focus: string, budgetTokens = NATIVE_SUMMARY_BUDGET_TOKENS): string {
  return summaryInstructions(budgetTokens, false, undefined, { focus });
}
