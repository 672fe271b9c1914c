import type OpenAI from 'openai';
import {
  fromOpenAI,
  toOpenAI,
  toolInputSchema,
  type ModelClient,
  type ModelRequest,
  type ModelResponse,
  type OpenAIMessage,
  type Usage,
} from '@ctxhost/core';
import { toProviderError } from './to-provider-error.js';

export interface OpenAIModelOptions {
  model: string;
  /** The provider name hooks and reports see (default `openai`; `openrouter`, `vllm`, `deepseek`…). */
  provider?: string;
  /** The model's window in tokens; unset, the host resolves it from the model name (registry, config). */
  contextWindow?: number;
  /** Default `max_completion_tokens` when a request does not say. */
  maxTokens?: number;
  /** Stream responses (default false). */
  stream?: boolean;
  /**
   * Send `max_tokens` instead of `max_completion_tokens` (older OpenAI-compatible
   * servers know only the former; OpenAI's reasoning models only the latter).
   */
  legacyMaxTokens?: boolean;
}

type CreateParams = OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;

/** The host's model interface over Chat Completions, for any OpenAI-compatible endpoint. */
export function createOpenAIModel(client: OpenAI, options: OpenAIModelOptions): ModelClient {
  return {
    provider: options.provider ?? 'openai',
    model: options.model,
    ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
    async create(request, call = {}) {
      const params = toChatParams(request, options);
      const requestOptions = call.signal === undefined ? {} : { signal: call.signal };
      const completion =
        (call.stream ?? options.stream) === true
          ? await client.chat.completions
              .stream({ ...params, stream: true, stream_options: { include_usage: true } }, requestOptions)
              .finalChatCompletion()
          : await client.chat.completions.create(params, requestOptions);
      return toResponse(completion);
    },
    toProviderError,
  };
}

/** A ModelRequest as Chat Completions params: system messages first, tools as functions, provider options passed through. */
export function toChatParams(
  request: ModelRequest,
  options: Pick<OpenAIModelOptions, 'maxTokens' | 'legacyMaxTokens'> = {},
): CreateParams {
  // Chat Completions has no `context_management` (inline compaction is the Responses API's: createOpenAIResponsesModel).
  const { betas: _betas, context_management: _inline, ...extra } = request.providerOptions ?? {};
  const maxTokens = request.maxTokens ?? options.maxTokens ?? 4096;
  return {
    ...(extra as Record<string, unknown>),
    model: request.model,
    messages: toOpenAI(request.messages),
    ...(options.legacyMaxTokens === true ? { max_tokens: maxTokens } : { max_completion_tokens: maxTokens }),
    ...(request.tools === undefined || request.tools.length === 0
      ? {}
      : {
          tools: request.tools.map((tool) => ({
            type: 'function' as const,
            function: { name: tool.name, description: tool.description, parameters: toolInputSchema(tool) },
          })),
        }),
  };
}

/** The first choice as an assistant message (fresh part ids), the usage, and the stop reason in the host's words. */
export function toResponse(completion: OpenAI.Chat.ChatCompletion): ModelResponse {
  const choice = completion.choices[0];
  const message = choice?.message;
  const toolCalls = (message?.tool_calls ?? []).flatMap((call) =>
    call.type === 'function'
      ? [
          {
            id: call.id,
            type: 'function' as const,
            function: { name: call.function.name, arguments: call.function.arguments },
          },
        ]
      : [],
  );
  const wire: OpenAIMessage = {
    role: 'assistant',
    content: message?.content ?? null,
    ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
  };
  const [assistant] = fromOpenAI([wire], { idPrefix: `${completion.id}-` });
  const parts = (assistant?.parts ?? []).map((part, index) => ({ ...part, id: `${completion.id}:${index}` }));
  return {
    message: { id: completion.id, role: 'assistant', parts, meta: { model: completion.model } },
    usage: toUsage(completion.usage),
    stopReason: toStopReason(choice?.finish_reason),
    requestId: completion.id,
  };
}

/**
 * Chat Completions usage in the host's terms: cached prompt tokens are cache
 * reads; `inputTokens` is the rest, so the three add up to the prompt, as for
 * Anthropic. OpenAI bills no cache writes.
 */
export function toUsage(usage: OpenAI.CompletionUsage | undefined): Usage {
  const cached = usage?.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    inputTokens: (usage?.prompt_tokens ?? 0) - cached,
    outputTokens: usage?.completion_tokens ?? 0,
    cacheCreationInputTokens: 0,
    cacheReadInputTokens: cached,
  };
}

function toStopReason(finish: string | null | undefined): string {
  switch (finish) {
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'refusal';
    default:
      return 'end_turn';
  }
}
