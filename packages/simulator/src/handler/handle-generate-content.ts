import { getModelInfo } from '@ctxhost/core';
import type { createPromptCache } from '../features/prompt-cache.js';
import { defaultTurn } from '../responders/default.js';
import type { createTurnQueue } from '../responders/scripted.js';
import { apiError, type ApiError } from '../wire/api-error.js';
import { generateContentBody, streamGenerateContent } from '../wire/gemini-response.js';
import type { GeminiUsageMetadata, GenerateContentRequest } from '../wire/gemini-wire.js';
import { sendJson } from '../wire/http-io.js';
import { countTextTokens, countTokens } from '../wire/tokenizer.js';
import type { AssistantTurn, WireUsage } from '../wire/wire.js';
import type { Exchange } from './exchange.js';
import { applyFault, type createFaultPlan } from './faults.js';
import { geminiToMessagesRequest, validateGenerateContentRequest } from './gemini-request.js';
import { everyPrefixCached } from './automatic-prefix-cache.js';
import { limitsFor, type ResolvedOptions } from './simulator-options.js';
import { outputTokens } from './usage.js';

/** `/v1beta/models/{model}:{method}` (and `/v1/…`): the routes of the Gemini API. */
export const GEMINI_ROUTE = /^\/v1(?:beta)?\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/;

interface Dependencies {
  options: ResolvedOptions;
  faults: ReturnType<typeof createFaultPlan>;
  /** A cache of its own: Gemini's implicit cache matches every prefix without markers. */
  cache: ReturnType<typeof createPromptCache>;
  turns: ReturnType<typeof createTurnQueue>;
  /** Model requests so far, shared with the other endpoints so `faults.at(k)` counts them all. */
  nextRequestNumber: () => number;
}

/**
 * `POST …/models/{model}:generateContent` and `:streamGenerateContent`: faults,
 * validation, the model check, the window check in Gemini's words, implicit
 * prefix caching, then the answer (JSON, or SSE with `alt=sse`). The
 * conversation is read as a Messages request, so the tokenizer and the
 * responders (scripted, replay, default, summary) are the same as /v1/messages.
 */
export function createGenerateContentHandler({ options, faults, cache, turns, nextRequestNumber }: Dependencies) {
  return async function handleGenerateContent(exchange: Exchange, model: string, stream: boolean): Promise<void> {
    const { record, requestId } = exchange;
    record.stream = stream;
    const problem = validateGenerateContentRequest(exchange.body) ?? checkGeminiModel(model, options);
    const request =
      problem === undefined ? geminiToMessagesRequest(model, exchange.body as GenerateContentRequest) : undefined;
    const fault = faults.pick(nextRequestNumber(), request ?? { model, max_tokens: 0, messages: [] });
    if (fault !== undefined) {
      record.fault = fault.kind;
      if (await applyFault(fault, exchange, stream)) return;
    }
    if (request === undefined) return exchange.fail(problem!);
    const limits = limitsFor(options, model);
    const promptTokens = countTokens(request);
    if (promptTokens > limits.contextLimit) return exchange.fail(geminiOverflow(promptTokens, limits.contextLimit));
    const turn = turns.next(request) ?? defaultTurn(request, { toolUse: options.defaultToolUse });
    const cached = cache.apply(everyPrefixCached(request), limits.minCacheableTokens).read;
    const usage = geminiUsage(promptTokens, cached, turn);
    record.usage = asWireUsage(usage);
    record.stopReason = turn.stop_reason;
    const answer = { responseId: `sim${requestId.slice('req_sim_'.length)}`, model, turn, usage };
    if (stream)
      return streamGenerateContent(
        exchange.response,
        answer,
        fault?.kind === 'sse_error' ? apiError(529, 'The model is overloaded. Please try again later.') : undefined,
      );
    sendJson(exchange.response, generateContentBody(answer));
  };
}

/** `:countTokens`: `{ contents }` or `{ generateContentRequest }`, the same rules, then `{ totalTokens }`. No window check, no faults. */
export function handleGeminiCountTokens(
  exchange: Exchange,
  model: string,
  options: Pick<ResolvedOptions, 'acceptAnyModel' | 'models'>,
): void {
  const body = exchange.body as { generateContentRequest?: GenerateContentRequest } | undefined;
  const inner = body?.generateContentRequest ?? exchange.body;
  const problem = validateGenerateContentRequest(inner) ?? checkGeminiModel(model, options);
  if (problem) return exchange.fail(problem);
  sendJson(exchange.response, {
    totalTokens: countTokens(geminiToMessagesRequest(model, inner as GenerateContentRequest)),
  });
}

/** A model the API does not serve: Gemini's 404 (the registry's Google models, `options.models`, or any with `acceptAnyModel`). */
function checkGeminiModel(
  model: string,
  options: Pick<ResolvedOptions, 'acceptAnyModel' | 'models'>,
): ApiError | undefined {
  if (options.acceptAnyModel || Object.hasOwn(options.models, model) || getModelInfo(model)?.provider === 'google')
    return undefined;
  return apiError(
    404,
    `models/${model} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`,
  );
}

/** Gemini's overflow, the text core's `parseTokenLimitError` knows (400 INVALID_ARGUMENT). */
export function geminiOverflow(promptTokens: number, contextLimit: number): ApiError {
  return apiError(
    400,
    `The input token count (${promptTokens}) exceeds the maximum number of tokens allowed (${contextLimit}).`,
  );
}

/** `usageMetadata`: the prompt includes its cached part; thoughts are counted apart from the candidates. */
function geminiUsage(promptTokens: number, cached: number, turn: AssistantTurn): GeminiUsageMetadata {
  const thoughts = turn.content
    .filter((block) => block.type === 'thinking')
    .reduce((sum, block) => sum + countTextTokens(String(block['thinking'] ?? '')), 0);
  const candidates = turn.usage?.output_tokens ?? Math.max(1, outputTokens(turn) - thoughts);
  const prompt = turn.usage?.input_tokens ?? promptTokens;
  const cachedContent = turn.usage?.cache_read_input_tokens ?? cached;
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: candidates,
    totalTokenCount: prompt + candidates + thoughts,
    ...(cachedContent > 0 ? { cachedContentTokenCount: cachedContent } : {}),
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
  };
}

/** The recorded usage in the Messages shape, so `requests[i].usage` reads the same for every endpoint. */
function asWireUsage(usage: GeminiUsageMetadata): WireUsage {
  const cached = usage.cachedContentTokenCount ?? 0;
  return {
    input_tokens: usage.promptTokenCount - cached,
    output_tokens: usage.candidatesTokenCount + (usage.thoughtsTokenCount ?? 0),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
  };
}
