import type { Message, Summarizer, SummaryRequest, SummarySource } from '@ctxhost/core';
import type { CompactionGroup } from './compaction-index.js';

/** A plain function is a summarizer too. */
export type SummarizeFunction = (request: SummaryRequest) => Promise<string>;

export interface SpanSummary {
  text: string;
  source: SummarySource;
}

/**
 * Summarizes the span's groups. When the summarizer declares `maxInputTokens`
 * and the span is larger, the span is cut at group boundaries into chunks that
 * fit, each summarized with the previous chunk's summary to update.
 */
export async function summarizeSpan(
  summarizer: Summarizer | SummarizeFunction,
  span: readonly CompactionGroup[],
  request: Omit<SummaryRequest, 'messages' | 'previousSummary'>,
): Promise<SpanSummary> {
  const summarize = typeof summarizer === 'function' ? summarizer : (input: SummaryRequest) => summarizer.summarize(input);
  const limit = typeof summarizer === 'function' ? undefined : summarizer.maxInputTokens;
  const chunks = chunkSpan(span, limit);
  let previousSummary: string | undefined;
  for (const chunk of chunks) {
    const text = await summarize({ ...request, messages: chunk, ...(previousSummary === undefined ? {} : { previousSummary }) });
    previousSummary = text;
  }
  return { text: previousSummary ?? '', source: chunks.length > 1 ? 'chunked' : 'model' };
}

function chunkSpan(span: readonly CompactionGroup[], limit: number | undefined): Message[][] {
  const chunks: Message[][] = [];
  let current: Message[] = [];
  let tokens = 0;
  for (const group of span) {
    if (limit !== undefined && current.length > 0 && tokens + group.tokens > limit) {
      chunks.push(current);
      current = [];
      tokens = 0;
    }
    current.push(...group.messages);
    tokens += group.tokens;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
