import type { ProviderError } from './provider-error.js';
import { promptTokens, type Usage } from './usage.js';

export interface SilentOverflowInput {
  usage: Usage | undefined;
  /** The window the session believes in; without one nothing can be said. */
  contextWindow: number | undefined;
  /** The reply had no content (or no output tokens). */
  empty: boolean;
}

/** What a successful response says about an overflow the API did not report as an error. */
export type SilentOverflow =
  /** An empty reply with the prompt at the window (the provider truncated the input to fit and had no room to answer): recover as from an overflow error. */
  | { kind: 'empty_at_window'; error: ProviderError }
  /** A reply whose reported prompt is over the window (the provider accepted it, maybe truncating silently): keep the reply, compact before the next request. */
  | { kind: 'over_window'; promptTokens: number; contextWindow: number };

/** Share of the window an empty reply's prompt must reach to count as an overflow (pi-ai's 0.99 for Xiaomi MiMo). */
export const SILENT_OVERFLOW_FILL = 0.99;

/**
 * Overflows that arrive as successes (pi-ai lists z.ai, which answers over
 * the window, and Xiaomi MiMo, which fills the window and answers nothing).
 */
export function detectSilentOverflow(input: SilentOverflowInput): SilentOverflow | undefined {
  if (input.usage === undefined || input.contextWindow === undefined || input.contextWindow <= 0) return undefined;
  const prompt = promptTokens(input.usage);
  if ((input.empty || input.usage.outputTokens === 0) && prompt >= input.contextWindow * SILENT_OVERFLOW_FILL) {
    return {
      kind: 'empty_at_window',
      error: {
        kind: 'context_overflow',
        message: `the model answered nothing with a prompt of ${prompt} tokens at its window of ${input.contextWindow}: a silent overflow`,
        currentTokens: prompt,
        maxTokens: input.contextWindow,
      },
    };
  }
  if (prompt > input.contextWindow)
    return { kind: 'over_window', promptTokens: prompt, contextWindow: input.contextWindow };
  return undefined;
}
