import type { createPromptCache } from '../features/prompt-cache.js';
import { defaultTurn } from '../responders/default.js';
import type { createTurnQueue } from '../responders/scripted.js';
import { apiError } from '../wire/api-error.js';
import { chatCompletionBody, streamChatCompletion } from '../wire/chat-response.js';
import type { ChatCompletionRequest, ChatUsage } from '../wire/chat-wire.js';
import { countTokens } from '../wire/tokenizer.js';
import type { AssistantTurn, MessagesRequest, WireUsage } from '../wire/wire.js';
import { cachedPrefix, CHAT_CACHE_MINIMUM_TOKENS, everyPrefixCached } from './automatic-prefix-cache.js';
import { chatContextLimitError } from './chat-context-limit.js';
import { toMessagesRequest, validateChatRequest } from './chat-request.js';
import type { Exchange } from './exchange.js';
import { applyFault, type createFaultPlan } from './faults.js';
import { limitsFor, type ResolvedOptions } from './simulator-options.js';
import { outputTokens } from './usage.js';

export { CHAT_CACHE_MINIMUM_TOKENS } from './automatic-prefix-cache.js';

interface Dependencies {
  options: ResolvedOptions;
  faults: ReturnType<typeof createFaultPlan>;
  /** A cache of its own: Chat Completions caches every prefix without markers. */
  cache: ReturnType<typeof createPromptCache>;
  turns: ReturnType<typeof createTurnQueue>;
  /** Model requests so far, shared with /v1/messages so `faults.at(k)` counts both. */
  nextRequestNumber: () => number;
}

/**
 * `POST /v1/chat/completions`: faults, validation, the window check in the
 * model's chat overflow style, automatic prefix caching, then the answer (JSON
 * or SSE). The conversation is read as a Messages request, so the tokenizer,
 * the responders (scripted, replay, default, summary) are the same as /v1/messages.
 */
export function createChatCompletionsHandler({ options, faults, cache, turns, nextRequestNumber }: Dependencies) {
  return async function handleChatCompletions(exchange: Exchange): Promise<void> {
    const { record, requestId } = exchange;
    const received = exchange.body as ChatCompletionRequest;
    record.stream = received?.stream === true;
    const fault = faults.pick(nextRequestNumber(), received as unknown as MessagesRequest);
    if (fault !== undefined) {
      record.fault = fault.kind;
      if (await applyFault(fault, exchange, record.stream)) return;
    }
    const problem = validateChatRequest(exchange.body);
    if (problem) return exchange.fail(problem);
    const request = toMessagesRequest(received);
    const limits = limitsFor(options, request.model);
    const promptTokens = countTokens(request);
    const overflow = chatContextLimitError(promptTokens, request.max_tokens, limits);
    if (overflow) return exchange.fail(overflow);
    const turn = turns.next(request) ?? defaultTurn(request, { toolUse: options.defaultToolUse });
    const cachedTokens = cachedPrefix(cache.apply(everyPrefixCached(request), CHAT_CACHE_MINIMUM_TOKENS).read);
    const usage = chatUsage(promptTokens, cachedTokens, turn);
    record.usage = asWireUsage(usage);
    record.stopReason = turn.stop_reason;
    const answer = {
      id: `chatcmpl-sim${requestId.slice('req_sim_'.length)}`,
      model: request.model,
      created: Math.floor(Date.now() / 1000),
      turn,
      usage,
    };
    if (record.stream) {
      const includeUsage = received.stream_options?.include_usage === true;
      return streamChatCompletion(exchange.response, answer, {
        includeUsage,
        ...(fault?.kind === 'sse_error'
          ? {
              failAfterStart: apiError(500, 'The server had an error while processing your request. Sorry about that!'),
            }
          : {}),
      });
    }
    exchange.response.writeHead(200, { 'content-type': 'application/json' });
    exchange.response.end(JSON.stringify(chatCompletionBody(answer)));
  };
}

function chatUsage(promptTokens: number, cachedTokens: number, turn: AssistantTurn): ChatUsage {
  const completion = turn.usage?.output_tokens ?? outputTokens(turn);
  const prompt = turn.usage?.input_tokens ?? promptTokens;
  const cached = turn.usage?.cache_read_input_tokens ?? cachedTokens;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** The recorded usage in the Messages shape, so `requests[i].usage` reads the same for both endpoints. */
function asWireUsage(usage: ChatUsage): WireUsage {
  const cached = usage.prompt_tokens_details.cached_tokens;
  return {
    input_tokens: usage.prompt_tokens - cached,
    output_tokens: usage.completion_tokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
  };
}
