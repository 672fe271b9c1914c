import type Anthropic from '@anthropic-ai/sdk';
import {
  fromAnthropic,
  nativeCompactionOf,
  toAnthropic,
  toolInputSchema,
  type AnthropicContentBlock,
  type JsonValue,
  type ModelClient,
  type ModelRequest,
  type ModelResponse,
  type ProviderError,
  type Usage,
} from '@ctxhost/core';
import { toProviderError } from './to-provider-error.js';
import { COMPACTION_BETA, ON_DEMAND_COMPACTION_BETA } from '@ctxhost/native-compaction';

export interface AnthropicModelOptions {
  model: string;
  /** The model's window in tokens (hooks need it; unknown means they say so). */
  contextWindow?: number;
  /** Default `max_tokens` when a request does not say. */
  maxTokens?: number;
  /** Stream responses (default false). */
  stream?: boolean;
}

/** The host's model interface over the real SDK. */
export function createAnthropicModel(client: Anthropic, options: AnthropicModelOptions): ModelClient {
  return {
    provider: 'anthropic',
    model: options.model,
    ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
    async create(request, call = {}) {
      const params = toParams(request, options);
      const requestOptions = { ...(call.signal === undefined ? {} : { signal: call.signal }), ...betaHeaders(request) };
      const message =
        (call.stream ?? options.stream) === true
          ? await client.messages.stream(params, requestOptions).finalMessage()
          : await client.messages.create(params, requestOptions);
      return toResponse(message);
    },
    async countTokens(request, call = {}) {
      const { max_tokens: _max, ...params } = toParams(request, options);
      const counted = await client.messages.countTokens(
        params,
        call.signal === undefined ? {} : { signal: call.signal },
      );
      return counted.input_tokens;
    },
    toProviderError,
  };
}

/** A ModelRequest as Messages API params (system, tools, provider options passed through). */
export function toParams(
  request: ModelRequest,
  options: Pick<AnthropicModelOptions, 'maxTokens'> = {},
): Anthropic.MessageCreateParamsNonStreaming {
  const wire = toAnthropic(request.messages);
  const { betas: _betas, ...extra } = request.providerOptions ?? {};
  return {
    ...(extra as Record<string, unknown>),
    model: request.model,
    max_tokens: request.maxTokens ?? options.maxTokens ?? 4096,
    messages: wire.messages as Anthropic.MessageParam[],
    ...(wire.system === undefined ? {} : { system: wire.system }),
    ...(request.tools === undefined || request.tools.length === 0
      ? {}
      : {
          tools: request.tools.map((tool) => ({
            name: tool.name,
            description: tool.description,
            input_schema: toolInputSchema(tool) as Anthropic.Tool.InputSchema,
          })),
        }),
  };
}

/**
 * The request's betas as the `anthropic-beta` header. A request that sends an
 * Anthropic compaction block back needs a compaction beta for the API to
 * accept the block: on-demand compaction's is added when none is named.
 */
function betaHeaders(request: ModelRequest): { headers?: Record<string, string> } {
  const named = request.providerOptions?.['betas'];
  const betas = Array.isArray(named) ? named.filter((beta): beta is string => typeof beta === 'string') : [];
  if (!betas.some((beta) => COMPACTION_BETAS.has(beta)) && sendsCompactionBlock(request))
    betas.push(ON_DEMAND_COMPACTION_BETA);
  return betas.length > 0 ? { headers: { 'anthropic-beta': betas.join(',') } } : {};
}

const COMPACTION_BETAS = new Set([COMPACTION_BETA, ON_DEMAND_COMPACTION_BETA]);

function sendsCompactionBlock(request: ModelRequest): boolean {
  return request.messages.some((message) =>
    message.parts.some((part) => nativeCompactionOf(part)?.vendor === 'anthropic'),
  );
}

/**
 * The SDK's message as a ctxhost response: an assistant message with fresh part
 * ids, and the usage. Server-side context management's report travels on the
 * message's meta, as the API sent it: `meta.contextManagement` (the response's
 * `context_management`, with `applied_edits`) and `meta.usageIterations`
 * (`usage.iterations`: a server compaction's own tokens, which the top-level
 * usage leaves out).
 */
export function toResponse(message: Anthropic.Message): ModelResponse {
  const blocks = message.content.map((block) =>
    keepBlockNulls(block as unknown as Record<string, unknown>),
  ) as AnthropicContentBlock[];
  const [assistant] = fromAnthropic([{ role: 'assistant', content: blocks }], undefined, {
    idPrefix: `${message.id}-`,
  });
  const wire = message as unknown as { context_management?: JsonValue; usage: { iterations?: JsonValue } };
  const meta = {
    model: message.model,
    ...(isPresent(wire.context_management) ? { contextManagement: wire.context_management } : {}),
    ...(isPresent(wire.usage.iterations) ? { usageIterations: wire.usage.iterations } : {}),
  };
  return {
    message: {
      ...assistant!,
      id: message.id,
      parts: assistant!.parts.map((part, index) => ({ ...part, id: `${message.id}:${index}` })),
      meta,
    },
    usage: toUsage(message.usage),
    stopReason: message.stop_reason ?? 'end_turn',
    requestId: message.id,
  };
}

function isPresent(value: JsonValue | undefined): value is JsonValue {
  return value !== undefined && value !== null;
}

export function toUsage(usage: Anthropic.Usage): Usage {
  const split = usage.cache_creation;
  return {
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    cacheCreationInputTokens: usage.cache_creation_input_tokens ?? 0,
    cacheReadInputTokens: usage.cache_read_input_tokens ?? 0,
    ...(split
      ? {
          cacheCreation: {
            ephemeral5mInputTokens: split.ephemeral_5m_input_tokens ?? 0,
            ephemeral1hInputTokens: split.ephemeral_1h_input_tokens ?? 0,
          },
        }
      : {}),
  };
}

/** A successful response that stopped because the window was full is an overflow too (newer models do not error). */
export function overflowFromResponse(response: ModelResponse): ProviderError | undefined {
  if (response.stopReason !== 'model_context_window_exceeded') return undefined;
  const prompt =
    response.usage.inputTokens + response.usage.cacheCreationInputTokens + response.usage.cacheReadInputTokens;
  return {
    kind: 'context_overflow',
    message: 'the model stopped: model_context_window_exceeded',
    currentTokens: prompt,
    provider: 'anthropic',
    ...(response.requestId === undefined ? {} : { requestId: response.requestId }),
  };
}

/**
 * Response blocks carry `citations: null` and the like; they are not request
 * fields. A compaction block is sent back verbatim, its nulls included
 * (`content: null` marks a failed compaction).
 */
function keepBlockNulls(block: Record<string, unknown>): Record<string, unknown> {
  if (block['type'] === 'compaction') return block;
  return Object.fromEntries(Object.entries(block).filter(([, value]) => value !== null));
}
