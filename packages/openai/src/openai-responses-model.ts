import type OpenAI from 'openai';
import {
  fromResponsesOutput,
  toResponsesInput,
  toolInputSchema,
  type ModelClient,
  type ModelRequest,
  type ModelResponse,
  type ResponsesItem,
  type Usage,
  isInvalidEncryptedContent,
  readableInPlaceOfOpaque,
} from '@ctxhost/core';
import { toProviderError } from './to-provider-error.js';

export interface OpenAIResponsesModelOptions {
  model: string;
  /** The provider name hooks and reports see (default `openai`). */
  provider?: string;
  /** The model's window in tokens; unset, the host resolves it from the model name (registry, config). */
  contextWindow?: number;
  /** Default `max_output_tokens` when a request does not say. */
  maxTokens?: number;
  /** Told when OpenAI refused a compaction item and the request went again with its readable copy. */
  onReadableCopy?: (event: { model: string; message: string }) => void;
}

type CreateParams = OpenAI.Responses.ResponseCreateParamsNonStreaming;

/**
 * The host's model interface over OpenAI's Responses API: the carrier of OpenAI's inline compaction.
 * `native-compaction` puts `context_management: [{ type: 'compaction', compact_threshold }]` in the
 * request's provider options, which go out as the body field; the encrypted `compaction` item the
 * server returns first in `output` comes back as a part (core's `fromResponsesOutput`) and goes out
 * again exactly (`toResponsesInput`). When OpenAI refuses an item it cannot decrypt (400
 * `invalid_encrypted_content`: another organisation's key, another model), the request goes once more
 * with the item's readable copy in its place, and `onReadableCopy` is told.
 */
export function createOpenAIResponsesModel(client: OpenAI, options: OpenAIResponsesModelOptions): ModelClient {
  return {
    provider: options.provider ?? 'openai',
    model: options.model,
    ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
    async create(request, call = {}) {
      const requestOptions = call.signal === undefined ? {} : { signal: call.signal };
      try {
        return toResponse(await client.responses.create(toResponsesParams(request, options), requestOptions));
      } catch (error) {
        const readable = isInvalidEncryptedContent(error) ? readableInPlaceOfOpaque(request.messages) : undefined;
        if (readable === undefined) throw error;
        options.onReadableCopy?.({
          model: request.model,
          message: error instanceof Error ? error.message : String(error),
        });
        const retried = { ...request, messages: readable };
        return toResponse(await client.responses.create(toResponsesParams(retried, options), requestOptions));
      }
    },
    toProviderError,
  };
}

/** A ModelRequest as Responses params: the messages as input items, tools as functions, provider options passed through. */
export function toResponsesParams(
  request: ModelRequest,
  options: Pick<OpenAIResponsesModelOptions, 'maxTokens'> = {},
): CreateParams {
  const { betas: _betas, ...extra } = request.providerOptions ?? {};
  return {
    ...(extra as Record<string, unknown>),
    model: request.model,
    input: toResponsesInput(request.messages) as unknown as OpenAI.Responses.ResponseInput,
    max_output_tokens: request.maxTokens ?? options.maxTokens ?? 4096,
    ...(request.tools === undefined || request.tools.length === 0
      ? {}
      : {
          tools: request.tools.map((tool) => ({
            type: 'function' as const,
            name: tool.name,
            description: tool.description,
            parameters: toolInputSchema(tool) ?? null,
            strict: false,
          })),
        }),
  };
}

/** The response's output as one assistant message (a compaction item first, when the server compacted), usage and stop reason. */
export function toResponse(response: OpenAI.Responses.Response): ModelResponse {
  const message = fromResponsesOutput(response.output as unknown as ResponsesItem[], response.id);
  return {
    message: { ...message, meta: { model: response.model } },
    usage: toUsage(response.usage),
    stopReason: response.output.some((item) => item.type === 'function_call')
      ? 'tool_use'
      : response.incomplete_details?.reason === 'max_output_tokens'
        ? 'max_tokens'
        : 'end_turn',
    requestId: response.id,
  };
}

/** Responses usage in the host's terms (cached input tokens are cache reads; OpenAI bills no cache writes). */
export function toUsage(usage: OpenAI.Responses.ResponseUsage | undefined): Usage {
  const cached = usage?.input_tokens_details?.cached_tokens ?? 0;
  return {
    inputTokens: (usage?.input_tokens ?? 0) - cached,
    outputTokens: usage?.output_tokens ?? 0,
    cacheCreationInputTokens: 0,
    cacheReadInputTokens: cached,
  };
}
