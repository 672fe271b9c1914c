import Anthropic from '@anthropic-ai/sdk';
import { applyCompaction, selectiveToolCall, tokenBudget, toolResultCompaction } from '@ctxhost/compaction';
import { createTokenCounter, fromAnthropic, getModelInfo, toAnthropic, type AnthropicMessageParam, type AnthropicSystem, type ModelOverride, type TokenCounter } from '@ctxhost/core';
import { applyCacheControl, type CacheableRequest } from '@ctxhost/prompt-caching';
import { toProviderError } from './to-provider-error.js';

export interface ContextManagementOptions {
  /** The model's window in tokens. Unset: the model registry's window for each request's model, else learned from the first overflow that states it. */
  contextWindow?: number;
  /** Core's `models:` config section: registry entries overridden or added. */
  models?: Readonly<Record<string, ModelOverride>>;
  /** Prompt caching with `system_and_3` breakpoints (default on). */
  caching?: boolean;
  cacheTtl?: '5m' | '1h';
  /** Overflow recoveries per call (default 2). */
  maxRecoveries?: number;
  counter?: TokenCounter;
  /** Told about every compaction the wrapper makes. */
  onCompaction?: (event: { tokensBefore: number; tokensAfter: number; reason: 'preflight' | 'overflow' }) => void;
}

type CreateParams = Anthropic.MessageCreateParamsNonStreaming;

/**
 * Your existing SDK loop, made safe in three lines: the returned client's
 * `messages.create` behaves as before, but adds cache breakpoints, compacts a
 * request that would overflow before sending it, and on an overflow error
 * compacts harder and retries — the caller never sees the error.
 *
 *   const client = withContextManagement(new Anthropic());
 *   const reply = await client.messages.create({ model, max_tokens, messages });
 */
export function withContextManagement(client: Anthropic, options: ContextManagementOptions = {}): Anthropic {
  const counter = options.counter ?? createTokenCounter();
  const learned = new Map<string, number>();
  const windowOf = (model: string) => options.contextWindow ?? learned.get(model) ?? getModelInfo(model, options.models)?.contextWindow;
  /** Without a known window there is nothing to compact against before the first overflow. */
  const preflightTarget = (params: { model: string; max_tokens: number }) => {
    const window = windowOf(params.model);
    return window === undefined ? Number.POSITIVE_INFINITY : Math.floor(Math.max(1, window - params.max_tokens) * 0.9);
  };

  async function prepare(params: CreateParams, targetTokens: number, reason: 'preflight' | 'overflow'): Promise<CreateParams> {
    const messages = fromAnthropic(params.messages as AnthropicMessageParam[], params.system as AnthropicSystem | undefined);
    const before = counter.countAll(messages);
    let next = params;
    if (before > targetTokens) {
      const strategy = tokenBudget({ budget: targetTokens, strategies: [toolResultCompaction(), selectiveToolCall({ keepLastToolCallGroups: 2 })] });
      const { messages: projection } = await applyCompaction(messages, strategy, { counter });
      const wire = toAnthropic(projection);
      options.onCompaction?.({ tokensBefore: before, tokensAfter: counter.countAll(projection), reason });
      const { system: _system, ...rest } = params;
      next = { ...rest, messages: wire.messages as Anthropic.MessageParam[], ...(wire.system === undefined ? {} : { system: wire.system as string | Anthropic.TextBlockParam[] }) };
    }
    return options.caching === false ? next : (applyCacheControl(next as unknown as CacheableRequest, { ttl: options.cacheTtl ?? '5m', native: true }) as unknown as CreateParams);
  }

  async function create(params: CreateParams, requestOptions?: Anthropic.RequestOptions): Promise<Anthropic.Message> {
    let target = preflightTarget(params);
    let prepared = await prepare(params, target, 'preflight');
    for (let attempt = 0; ; attempt++) {
      try {
        return await client.messages.create(prepared, requestOptions);
      } catch (error) {
        const problem = toProviderError(error);
        const overflow = problem.kind === 'context_overflow' || problem.kind === 'output_budget_overflow' || problem.kind === 'request_too_large';
        if (!overflow || attempt >= (options.maxRecoveries ?? 2)) throw error;
        if (problem.maxTokens !== undefined && options.contextWindow === undefined) learned.set(params.model, problem.maxTokens);
        const estimate = counter.countAll(fromAnthropic(prepared.messages as AnthropicMessageParam[], prepared.system as AnthropicSystem | undefined));
        const scale = problem.currentTokens !== undefined && problem.maxTokens !== undefined ? (problem.maxTokens - params.max_tokens) / problem.currentTokens : 0.6;
        target = Math.max(1, Math.floor(Math.min(target, estimate) * Math.min(scale, 0.9) * 0.9));
        prepared = await prepare(params, target, 'overflow');
      }
    }
  }

  const messages = new Proxy(client.messages, {
    get(target, property, receiver) {
      if (property === 'create') return (params: Anthropic.MessageCreateParams, requestOptions?: Anthropic.RequestOptions) =>
        params.stream === true ? prepare(params as unknown as CreateParams, preflightTarget(params), 'preflight').then((prepared) => target.create({ ...prepared, stream: true }, requestOptions)) : create(params as CreateParams, requestOptions);
      // stream() returns synchronously, so it gets the cache breakpoints but not the (async) preflight compaction.
      if (property === 'stream') return (params: CreateParams, requestOptions?: Anthropic.RequestOptions) =>
        target.stream(options.caching === false ? params : (applyCacheControl(params as unknown as CacheableRequest, { ttl: options.cacheTtl ?? '5m', native: true }) as unknown as CreateParams), requestOptions);
      return Reflect.get(target, property, receiver);
    },
  });
  return new Proxy(client, { get: (target, property, receiver) => (property === 'messages' ? messages : Reflect.get(target, property, receiver)) });
}
