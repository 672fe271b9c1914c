import type { Message, SummarySource, Summarizer, TokenCounter } from '@ctxhost/core';
import { extractiveSummary } from './extractive-summary.js';
import { summaryInstructions } from './summary-template.js';

export interface MiddleSummary {
  text: string;
  source: Extract<SummarySource, 'model' | 'chunked' | 'extractive'>;
  notes: string[];
}

export interface SummarizeMiddleOptions {
  summarizer: Summarizer | undefined;
  counter: TokenCounter;
  budgetTokens: number;
  previousSummary: string | undefined;
  signal?: AbortSignal;
}

/**
 * Phase 3, never silently lossy: the summarizer in one call when the middle
 * fits its window; piece by piece when it does not (each piece updates the
 * running summary, which merges them); an extractive summary when the
 * summarizer fails or there is none. The result says which path was taken.
 */
export async function summarizeMiddle(middle: readonly Message[], options: SummarizeMiddleOptions): Promise<MiddleSummary> {
  const fallback = (why: string): MiddleSummary => ({ text: extractiveSummary(middle, options.previousSummary), source: 'extractive', notes: [why] });
  const summarizer = options.summarizer;
  if (summarizer === undefined) return fallback('no summarizer configured: extractive summary');
  const pieces = splitToFit(middle, options.counter, summarizer.maxInputTokens);
  try {
    let summary = options.previousSummary;
    for (const piece of pieces) {
      const text = await summarizer.summarize({
        messages: piece,
        instructions: summaryInstructions(options.budgetTokens, summary !== undefined),
        maxOutputTokens: options.budgetTokens,
        ...(summary === undefined ? {} : { previousSummary: summary }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
      if (text.trim().length === 0) throw new Error('the summarizer returned an empty summary');
      summary = text.trim();
    }
    const notes = pieces.length > 1 ? [`the middle was larger than the summarizer's window: summarized in ${pieces.length} pieces`] : [];
    return { text: summary!, source: pieces.length > 1 ? 'chunked' : 'model', notes };
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return fallback(`summarizer ${summarizer.name} failed (${error instanceof Error ? error.message : String(error)}): extractive summary`);
  }
}

/** Pieces of whole messages that each fit `limit` (with room for instructions); one piece when there is no limit. */
export function splitToFit(messages: readonly Message[], counter: TokenCounter, limit: number | undefined): Message[][] {
  if (limit === undefined) return [[...messages]];
  const room = Math.max(1, Math.floor(limit * 0.75));
  const pieces: Message[][] = [];
  let current: Message[] = [];
  let tokens = 0;
  for (const message of messages) {
    const size = counter.count(message);
    if (current.length > 0 && tokens + size > room) {
      pieces.push(current);
      current = [];
      tokens = 0;
    }
    current.push(message);
    tokens += size;
  }
  if (current.length > 0) pieces.push(current);
  return pieces;
}
