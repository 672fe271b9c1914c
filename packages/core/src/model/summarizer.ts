import type { Message } from './message.js';

/** What a summarizer is asked to do. */
export interface SummaryRequest {
  /** The span to summarize, in order. */
  messages: readonly Message[];
  /** The instructions (the compressor's structured template, or a strategy's prompt). */
  instructions: string;
  /** A previous summary to update rather than start again (iterative re-compression). */
  previousSummary?: string;
  /** Upper bound on the summary's length. */
  maxOutputTokens: number;
  signal?: AbortSignal;
}

/**
 * The summarizer contract used by the compressor and the summarization strategy.
 * `@ctxhost/anthropic`'s `createAnthropicSummarizer` implements it over the SDK.
 */
export interface Summarizer {
  readonly name: string;
  /** The largest span (in tokens) one call can take; larger spans are chunked by the caller. */
  readonly maxInputTokens?: number;
  summarize(request: SummaryRequest): Promise<string>;
}
