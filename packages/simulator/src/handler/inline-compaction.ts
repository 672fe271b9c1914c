import { compactionItem, type ResponsesCompactionItem } from '../features/responses-compaction.js';
import { buildSummary } from '../responders/summary.js';
import type { ResponsesUsage } from '../wire/responses-wire.js';
import { countTextTokens } from '../wire/tokenizer.js';
import type { MessagesRequest } from '../wire/wire.js';

export interface InlineCompaction {
  /** What the server answers from: the summary, then the last user message. */
  request: MessagesRequest;
  item: ResponsesCompactionItem;
  summaryTokens: number;
}

/**
 * Responses inline compaction: when the rendered prompt is over the request's
 * `compact_threshold`, the simulator's structured summary of it (sealed into
 * the item's `encrypted_content`) replaces it; undefined below the threshold.
 */
export function compactInline(
  request: MessagesRequest,
  promptTokens: number,
  threshold: number | undefined,
  requestId: string,
): InlineCompaction | undefined {
  if (threshold === undefined || promptTokens <= threshold) return undefined;
  const summary = buildSummary(request);
  const last = request.messages.at(-1);
  return {
    request: {
      ...request,
      messages: [{ role: 'assistant', content: summary }, ...(last?.role === 'user' ? [last] : [])],
    },
    item: compactionItem(`cmp_sim${requestId.slice('req_sim_'.length)}`, summary),
    summaryTokens: countTextTokens(summary),
  };
}

/**
 * The response's usage with the compaction pass billed in it: the server read
 * the whole prompt to summarize it (input) and wrote the summary (output). The
 * simulator's model of the bill; OpenAI's documentation gives no split.
 */
export function withCompactionPass(
  usage: ResponsesUsage,
  compacted: InlineCompaction | undefined,
  promptTokens: number,
): ResponsesUsage {
  if (compacted === undefined) return usage;
  const input = usage.input_tokens + promptTokens;
  const output = usage.output_tokens + compacted.summaryTokens;
  return { ...usage, input_tokens: input, output_tokens: output, total_tokens: input + output };
}
