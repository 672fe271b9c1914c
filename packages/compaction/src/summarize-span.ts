import {
  createSecretRedactor,
  redactMessages,
  secretRedactorFromConfig,
  type Message,
  type RedactionConfig,
  type SecretRedactor,
  type Summarizer,
  type SummaryRequest,
  type SummarySource,
} from '@ctxhost/core';
import type { CompactionGroup } from './compaction-index.js';

const DEFAULT_REDACTOR = createSecretRedactor();

/** A config `redaction` section or a redactor as a redactor; undefined stays undefined (the caller's default applies). */
export function toRedactor(redaction: RedactionConfig | SecretRedactor | undefined): SecretRedactor | undefined {
  if (redaction === undefined) return undefined;
  return 'redact' in redaction ? redaction : secretRedactorFromConfig(redaction);
}

/** A plain function is a summarizer too. */
export type SummarizeFunction = (request: SummaryRequest) => Promise<string>;

export interface SpanSummary {
  text: string;
  source: SummarySource;
}

/**
 * Summarizes the span's groups. When the summarizer declares `maxInputTokens`
 * and the span is larger, the span is cut at group boundaries into chunks that
 * fit, each summarized with the previous chunk's summary to update. Secrets
 * are redacted on the way in and in the summary (core's secret redactor, every
 * built-in pattern unless another `redactor` is given); the originals stay in the store.
 */
export async function summarizeSpan(
  summarizer: Summarizer | SummarizeFunction,
  span: readonly CompactionGroup[],
  request: Omit<SummaryRequest, 'messages' | 'previousSummary'>,
  redactor: SecretRedactor = DEFAULT_REDACTOR,
): Promise<SpanSummary> {
  const summarize =
    typeof summarizer === 'function' ? summarizer : (input: SummaryRequest) => summarizer.summarize(input);
  const limit = typeof summarizer === 'function' ? undefined : summarizer.maxInputTokens;
  const chunks = chunkSpan(span, limit);
  let previousSummary: string | undefined;
  for (const chunk of chunks) {
    const text = await summarize({
      ...request,
      messages: redactMessages(chunk, redactor),
      ...(previousSummary === undefined ? {} : { previousSummary }),
    });
    previousSummary = redactor.redactText(text);
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
