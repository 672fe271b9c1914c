import type { createPromptCache } from '../features/prompt-cache.js';
import { defaultTurn } from '../responders/default.js';
import type { createTurnQueue } from '../responders/scripted.js';
import { apiError, type ApiError } from '../wire/api-error.js';
import { responseBody, streamResponse, type ResponsesAnswer } from '../wire/responses-response.js';
import type { ResponsesRequest, ResponsesUsage } from '../wire/responses-wire.js';
import { countTextTokens, countTokens } from '../wire/tokenizer.js';
import type { AssistantTurn, MessagesRequest, WireUsage } from '../wire/wire.js';
import { cachedPrefix, CHAT_CACHE_MINIMUM_TOKENS, everyPrefixCached } from './automatic-prefix-cache.js';
import type { Exchange } from './exchange.js';
import { applyFault, type createFaultPlan } from './faults.js';
import { customToolNames, responsesToMessagesRequest, validateResponsesRequest } from './responses-request.js';
import { limitsFor, type ResolvedOptions } from './simulator-options.js';
import { compactInline, withCompactionPass } from './inline-compaction.js';
import { compactThreshold } from '../features/responses-compaction.js';
import { outputTokens } from './usage.js';

/** OpenAI's Responses overflow: no numbers, only the code (the sample core's `parseTokenLimitError` knows). */
export const RESPONSES_OVERFLOW_MESSAGE =
  'Your input exceeds the context window of this model. Please adjust your input and try again.';

interface Dependencies {
  options: ResolvedOptions;
  faults: ReturnType<typeof createFaultPlan>;
  /** A cache of its own: the Responses API caches every prefix without markers. */
  cache: ReturnType<typeof createPromptCache>;
  turns: ReturnType<typeof createTurnQueue>;
  /** Model requests so far, shared with the other endpoints so `faults.at(k)` counts all. */
  nextRequestNumber: () => number;
}

/**
 * `POST /v1/responses`: faults, validation, the window check, inline
 * compaction (`context_management` with `compact_threshold`: over it, the
 * server summarizes first, answers from the summary and the last user
 * message, and puts the encrypted `compaction` item first in `output`),
 * automatic prefix caching, then the answer (JSON or SSE). The input is read as a Messages
 * request, so the tokenizer and the responders (scripted, replay, default,
 * summary) are the same as /v1/messages.
 */
export function createResponsesHandler({ options, faults, cache, turns, nextRequestNumber }: Dependencies) {
  return async function handleResponses(exchange: Exchange): Promise<void> {
    const { record, requestId } = exchange;
    const received = exchange.body as ResponsesRequest;
    record.stream = received?.stream === true;
    const fault = faults.pick(nextRequestNumber(), received as unknown as MessagesRequest);
    if (fault !== undefined) {
      record.fault = fault.kind;
      if (await applyFault(fault, exchange, record.stream)) return;
    }
    const problem = validateResponsesRequest(exchange.body);
    if (problem) return exchange.fail(problem);
    const sent = responsesToMessagesRequest(received);
    const promptTokens = countTokens(sent);
    const overflow = contextLimitError(promptTokens, limitsFor(options, sent.model).contextLimit);
    if (overflow) return exchange.fail(overflow);
    const compacted = compactInline(sent, promptTokens, compactThreshold(received), requestId);
    const request = compacted?.request ?? sent;
    const turn = turns.next(request) ?? defaultTurn(request, { toolUse: options.defaultToolUse });
    const cachedTokens = cachedPrefix(cache.apply(everyPrefixCached(request), CHAT_CACHE_MINIMUM_TOKENS).read);
    const usage = withCompactionPass(responsesUsage(countTokens(request), cachedTokens, turn), compacted, promptTokens);
    record.usage = asWireUsage(usage);
    record.stopReason = turn.stop_reason;
    const answer: ResponsesAnswer = {
      id: `resp_sim${requestId.slice('req_sim_'.length)}`,
      model: request.model,
      createdAt: Math.floor(Date.now() / 1000),
      turn,
      usage,
      customTools: customToolNames(received),
      encryptedReasoning: (received.include ?? []).includes('reasoning.encrypted_content'),
      ...(compacted === undefined ? {} : { compaction: compacted.item }),
    };
    if (record.stream)
      return streamResponse(
        exchange.response,
        answer,
        fault?.kind === 'sse_error'
          ? apiError(500, 'The server had an error while processing your request. Sorry about that!')
          : undefined,
      );
    exchange.response.writeHead(200, { 'content-type': 'application/json' });
    exchange.response.end(JSON.stringify(responseBody(answer, true)));
  };
}

export function contextLimitError(promptTokens: number, contextLimit: number): ApiError | undefined {
  if (promptTokens <= contextLimit) return undefined;
  return apiError(400, RESPONSES_OVERFLOW_MESSAGE, { param: 'input', code: 'context_length_exceeded' });
}

function responsesUsage(promptTokens: number, cachedTokens: number, turn: AssistantTurn): ResponsesUsage {
  const output = turn.usage?.output_tokens ?? outputTokens(turn);
  const input = turn.usage?.input_tokens ?? promptTokens;
  const cached = turn.usage?.cache_read_input_tokens ?? cachedTokens;
  const reasoning = turn.content.reduce(
    (sum, block) => sum + (block.type === 'thinking' ? countTextTokens(String(block['thinking'] ?? '')) : 0),
    0,
  );
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: Math.min(reasoning, output) },
    total_tokens: input + output,
  };
}

/** The recorded usage in the Messages shape, so `requests[i].usage` reads the same for every endpoint. */
function asWireUsage(usage: ResponsesUsage): WireUsage {
  const cached = usage.input_tokens_details.cached_tokens;
  return {
    input_tokens: usage.input_tokens - cached,
    output_tokens: usage.output_tokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
  };
}
