import type OpenAI from 'openai';
import { applyCompaction, selectiveToolCall, tokenBudget, toolResultCompaction } from '@ctxhost/compaction';
import {
  createTokenCounter,
  fromOpenAI,
  getModelInfo,
  toOpenAI,
  type ModelOverride,
  type OpenAIMessage,
  type TokenCounter,
} from '@ctxhost/core';
import { openAITokenCounterFor } from './openai-token-counter.js';
import { toProviderError } from './to-provider-error.js';

export interface OpenAIContextManagementOptions {
  /** The model's window in tokens. Unset: the model registry's window for each request's model, else learned from the first overflow. */
  contextWindow?: number;
  /** Core's `models:` config section: registry entries overridden or added. */
  models?: Readonly<Record<string, ModelOverride>>;
  /** Overflow recoveries per call (default 2). */
  maxRecoveries?: number;
  /** Default: the model's real encoding when it has a public one (gpt-tokenizer), else the calibrated estimator. */
  counter?: TokenCounter;
  /** Told about every compaction the wrapper makes. */
  onCompaction?: (event: {
    model: string;
    tokensBefore: number;
    tokensAfter: number;
    reason: 'preflight' | 'overflow';
  }) => void;
}

type CreateParams = OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
type StreamingParams = OpenAI.Chat.ChatCompletionCreateParamsStreaming;

/** Reply tokens the preflight leaves room for when a request does not say (OpenAI's default is the model's whole output cap). */
const DEFAULT_REPLY_RESERVE = 4096;

/**
 * Your existing Chat Completions loop, made safe: the returned client's
 * `chat.completions.create` behaves as before, but compacts a request that
 * would overflow before sending it (tool results first, then old tool calls;
 * never splitting a call from its results), and on an overflow error — any
 * provider's wording — compacts harder and retries: the caller never sees the
 * error. OpenAI caches prefixes by itself, so no markers are added.
 *
 *   const client = withContextManagement(new OpenAI());
 *   const reply = await client.chat.completions.create({ model: 'gpt-4o', messages });
 */
export function withContextManagement(client: OpenAI, options: OpenAIContextManagementOptions = {}): OpenAI {
  const learned = new Map<string, number>();
  const counters = new Map<string, Promise<TokenCounter>>();

  function windowOf(model: string): number | undefined {
    return options.contextWindow ?? learned.get(model) ?? getModelInfo(model, options.models)?.contextWindow;
  }

  function counterFor(model: string): Promise<TokenCounter> {
    if (options.counter !== undefined) return Promise.resolve(options.counter);
    let counter = counters.get(model);
    if (counter === undefined) {
      counter = openAITokenCounterFor(model, options.models).then((exact) => exact ?? createTokenCounter());
      counters.set(model, counter);
    }
    return counter;
  }

  function replyReserve(params: CreateParams | StreamingParams): number {
    return params.max_completion_tokens ?? params.max_tokens ?? DEFAULT_REPLY_RESERVE;
  }

  async function prepare<P extends CreateParams | StreamingParams>(
    params: P,
    targetTokens: number | undefined,
    reason: 'preflight' | 'overflow',
  ): Promise<P> {
    if (targetTokens === undefined) return params;
    const counter = await counterFor(params.model);
    const messages = fromOpenAI(params.messages as OpenAIMessage[]);
    const before = counter.countAll(messages);
    if (before <= targetTokens) return params;
    const strategy = tokenBudget({
      budget: targetTokens,
      strategies: [toolResultCompaction(), selectiveToolCall({ keepLastToolCallGroups: 2 })],
    });
    const { messages: projection } = await applyCompaction(messages, strategy, { counter });
    options.onCompaction?.({
      model: params.model,
      tokensBefore: before,
      tokensAfter: counter.countAll(projection),
      reason,
    });
    return { ...params, messages: toOpenAI(projection) };
  }

  function preflightTarget(params: CreateParams | StreamingParams): number | undefined {
    const window = windowOf(params.model);
    return window === undefined ? undefined : Math.floor(Math.max(1, window - replyReserve(params)) * 0.9);
  }

  async function create(
    params: CreateParams,
    requestOptions?: OpenAI.RequestOptions,
  ): Promise<OpenAI.Chat.ChatCompletion> {
    let target = preflightTarget(params);
    let prepared = await prepare(params, target, 'preflight');
    for (let attempt = 0; ; attempt++) {
      try {
        return await client.chat.completions.create(prepared, requestOptions);
      } catch (error) {
        const problem = toProviderError(error);
        const overflow =
          problem.kind === 'context_overflow' ||
          problem.kind === 'output_budget_overflow' ||
          problem.kind === 'request_too_large';
        if (!overflow || attempt >= (options.maxRecoveries ?? 2)) throw error;
        // An unknown window is learned from the first overflow that states it.
        if (problem.maxTokens !== undefined && options.contextWindow === undefined)
          learned.set(params.model, problem.maxTokens);
        const counter = await counterFor(params.model);
        const estimate = counter.countAll(fromOpenAI(prepared.messages as OpenAIMessage[]));
        const reserve = replyReserve(params);
        const scale =
          problem.currentTokens !== undefined && problem.maxTokens !== undefined
            ? (problem.maxTokens - reserve) / problem.currentTokens
            : 0.6;
        target = Math.max(
          1,
          Math.floor(Math.min(target ?? estimate, estimate) * Math.min(Math.max(scale, 0.05), 0.9) * 0.9),
        );
        prepared = await prepare(params, target, 'overflow');
      }
    }
  }

  const completions = new Proxy(client.chat.completions, {
    get(target, property, receiver) {
      if (property === 'create')
        return (params: OpenAI.Chat.ChatCompletionCreateParams, requestOptions?: OpenAI.RequestOptions) =>
          params.stream === true
            ? prepare(params, preflightTarget(params), 'preflight').then((prepared) =>
                target.create(prepared, requestOptions),
              )
            : create(params, requestOptions);
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
  const chat = new Proxy(client.chat, {
    get: (target, property, receiver) =>
      property === 'completions' ? completions : (Reflect.get(target, property, receiver) as unknown),
  });
  return new Proxy(client, {
    get: (target, property, receiver) =>
      property === 'chat' ? chat : (Reflect.get(target, property, receiver) as unknown),
  });
}
