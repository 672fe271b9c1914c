import { compactionItem } from '../features/responses-compaction.js';
import { buildSummary } from '../responders/summary.js';
import type { ResponsesUsage } from '../wire/responses-wire.js';
import { sendJson } from '../wire/http-io.js';
import { countTextTokens, countTokens, messageBlocks } from '../wire/tokenizer.js';
import type { Exchange } from './exchange.js';
import { contextLimitError } from './handle-responses.js';
import { responsesToMessagesRequest, validateResponsesRequest } from './responses-request.js';
import { limitsFor, type ResolvedOptions } from './simulator-options.js';
import type { ResponsesRequest } from '../wire/responses-wire.js';

export const RESPONSES_COMPACT = '/v1/responses/compact';

/**
 * `POST /v1/responses/compact` (`openai` 7.57: `client.responses.compact`):
 * the input is validated as for `/v1/responses` and must fit the window; the
 * answer is a `response.compaction` object whose `output` is every user
 * message of the input followed by one encrypted `compaction` item (the
 * simulator's structured summary, sealed so it can read it back), with the
 * pass's usage.
 */
export function createResponsesCompactHandler(options: ResolvedOptions) {
  return async function handleCompact(exchange: Exchange): Promise<void> {
    const problem = validateResponsesRequest(exchange.body);
    if (problem) return exchange.fail(problem);
    const received = exchange.body as ResponsesRequest;
    const request = responsesToMessagesRequest(received);
    const promptTokens = countTokens(request);
    const overflow = contextLimitError(promptTokens, limitsFor(options, request.model).contextLimit);
    if (overflow) return exchange.fail(overflow);
    const summary = buildSummary(request);
    const suffix = exchange.requestId.slice('req_sim_'.length);
    const users = request.messages
      .filter((message) => message.role === 'user')
      .map((message) => messageBlocks(message).filter((block) => block.type === 'text'))
      .filter((blocks) => blocks.length > 0)
      .map((blocks, index) => ({
        type: 'message',
        id: `msg_sim${suffix}_${index}`,
        status: 'completed',
        role: 'user',
        content: blocks.map((block) => ({ type: 'input_text', text: block.text ?? '' })),
      }));
    const outputTokens = countTextTokens(summary);
    const usage: ResponsesUsage = {
      input_tokens: promptTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: outputTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: promptTokens + outputTokens,
    };
    exchange.record.usage = {
      input_tokens: promptTokens,
      output_tokens: outputTokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
    };
    sendJson(exchange.response, {
      id: `resp_sim${suffix}`,
      object: 'response.compaction',
      created_at: Math.floor(Date.now() / 1000),
      output: [...users, compactionItem(`cmp_sim${suffix}`, summary)],
      usage,
    });
  };
}
