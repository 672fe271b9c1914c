import type Anthropic from '@anthropic-ai/sdk';
import { applyCompaction, selectiveToolCall, tokenBudget, toolResultCompaction } from '@ctxhost/compaction';
import { createCompressor } from '@ctxhost/compressor';
import {
  coveredCount,
  createTokenCounter,
  fromAnthropic,
  getModelInfo,
  toAnthropic,
  type AnthropicMessageParam,
  type AnthropicSystem,
  type Message,
  type ModelOverride,
  type TokenCounter,
} from '@ctxhost/core';
import { applyCacheControl, type CacheableRequest } from '@ctxhost/prompt-caching';
import { createAnthropicSummarizer } from './summarizer.js';
import { toProviderError } from './to-provider-error.js';
import { createWrapperConversations } from './wrapper-conversations.js';

export interface ContextManagementOptions {
  /** The model's window in tokens. Unset: the model registry's window for each request's model. Either way, an overflow that states a smaller limit is adopted from then on. */
  contextWindow?: number;
  /** Core's `models:` config section: registry entries overridden or added. */
  models?: Readonly<Record<string, ModelOverride>>;
  /** Prompt caching with `system_and_3` breakpoints (default on). */
  caching?: boolean;
  cacheTtl?: '5m' | '1h';
  /** Overflow recoveries per call (default 2). */
  maxRecoveries?: number;
  counter?: TokenCounter;
  /**
   * Summarize instead of dropping turns: the compressor (`@ctxhost/compressor`) with a summarizer on the
   * same client, `true` for the request's own model or `{ model }` for another. Default off: old tool
   * output collapses, old tool-call groups go, then old turns go (the first user message always stays).
   */
  summarize?: boolean | { model: string };
  /** Share of the room (window − max_tokens) a request may fill before it is compacted (default 0.85). */
  compactAt?: number;
  /** Share of the room a compaction aims for, so the next requests append to a stable prefix (default 0.5). */
  lowWater?: number;
  /** Told about every compaction the wrapper makes: how much, why, what was dropped or summarized. */
  onCompaction?: (event: WrapperCompactionEvent) => void;
  /** Told once per model when an overflow states a limit below the window in use; the wrapper uses it from then on. */
  onWindowLearned?: (event: { model: string; contextWindow: number; previous: number | undefined }) => void;
}

export interface WrapperCompactionEvent {
  tokensBefore: number;
  tokensAfter: number;
  reason: 'preflight' | 'overflow';
  messagesBefore: number;
  messagesAfter: number;
  /** Messages left out with nothing in their place. */
  dropped: number;
  /** Messages a summary now stands for. */
  summarized: number;
  /** The compaction's own notes (strategies' steps, the summary's source). */
  notes: string[];
}

type CreateParams = Anthropic.MessageCreateParamsNonStreaming;

export const WRAPPER_DEFAULTS = { compactAt: 0.85, lowWater: 0.5, maxRecoveries: 2 } as const;

/**
 * Your existing SDK loop, made safe in three lines: the returned client's
 * `messages.create` behaves as before, but adds cache breakpoints, compacts a
 * request that would overflow before sending it, and on an overflow error
 * compacts harder and retries — the caller never sees the error.
 *
 * Cache-stable: a compaction goes down to a low-water mark and is remembered per
 * conversation (keyed by its opening messages), so the following calls send the
 * same compacted prefix plus what the caller appended, and the cached prefix is
 * read, not rewritten, until the conversation reaches the line again.
 *
 *   const client = withContextManagement(new Anthropic());
 *   const reply = await client.messages.create({ model, max_tokens, messages });
 */
export function withContextManagement(client: Anthropic, options: ContextManagementOptions = {}): Anthropic {
  const counter = options.counter ?? createTokenCounter();
  const learned = new Map<string, number>();
  const conversations = createWrapperConversations();
  const settings = {
    ...WRAPPER_DEFAULTS,
    ...definedOnly({ compactAt: options.compactAt, lowWater: options.lowWater, maxRecoveries: options.maxRecoveries }),
  };
  const configured = (model: string) => options.contextWindow ?? getModelInfo(model, options.models)?.contextWindow;
  const windowOf = (model: string) => learned.get(model) ?? configured(model);
  const roomOf = (params: { model: string; max_tokens: number }) => {
    const window = windowOf(params.model);
    return window === undefined ? undefined : Math.max(1, window - params.max_tokens);
  };

  function learn(model: string, limit: number | undefined): void {
    if (limit === undefined) return;
    const previous = windowOf(model);
    if (previous !== undefined && limit >= previous) return;
    learned.set(model, limit);
    options.onWindowLearned?.({ model, contextWindow: limit, previous });
  }

  /** The conversation as the model should see it: the remembered projection plus what the caller added since. */
  function current(params: CreateParams): { key: string; messages: Message[] } {
    const key = conversations.keyOf(params.system, params.messages);
    const all = fromAnthropic(params.messages as AnthropicMessageParam[], params.system as AnthropicSystem | undefined);
    const known = conversations.reuse(key, params.messages);
    if (known === undefined) return { key, messages: all };
    const offset = params.system === undefined ? 0 : 1;
    return { key, messages: [...known.projection, ...all.slice(offset + known.covered)] };
  }

  async function compact(
    params: CreateParams,
    messages: Message[],
    targetTokens: number,
    reason: 'preflight' | 'overflow',
  ): Promise<Message[]> {
    const before = counter.countAll(messages);
    const { projection, notes, summarized } = await shrink(
      messages,
      targetTokens,
      reason,
      params.model,
      scales.get(conversations.keyOf(params.system, params.messages)) ?? 1,
    );
    if (projection === messages) return messages;
    const kept = new Set(projection.map((message) => message.id));
    const gone = messages.filter((message) => !kept.has(message.id)).length;
    options.onCompaction?.({
      tokensBefore: before,
      tokensAfter: counter.countAll(projection),
      reason,
      messagesBefore: messages.length,
      messagesAfter: projection.length,
      dropped: Math.max(0, gone - summarized),
      summarized,
      notes,
    });
    return projection;
  }

  async function shrink(
    messages: Message[],
    targetTokens: number,
    reason: 'preflight' | 'overflow',
    model: string,
    scale: number,
  ): Promise<{ projection: Message[]; notes: string[]; summarized: number }> {
    if (options.summarize !== undefined && options.summarize !== false) {
      const window = windowOf(model);
      // The span sent to the summarizer must fit its window too (in the API's units: our estimate times the scale).
      const summarizer = createAnthropicSummarizer(client, {
        model: options.summarize === true ? model : options.summarize.model,
        ...(window === undefined ? {} : { maxInputTokens: Math.floor(window / 2 / scale) }),
      });
      const result = await createCompressor({ summarizer }).compress(messages, {
        sessionId: 'wrapper',
        contextWindow: window ?? counter.countAll(messages) * 2,
        counter,
        reason: reason === 'overflow' ? 'recovery' : 'hygiene',
        targetTokens,
        summarizer,
      });
      if (result.report.tokensAfter >= result.report.tokensBefore)
        return { projection: messages, notes: result.report.notes ?? [], summarized: 0 };
      return {
        projection: result.messages,
        notes: [...(result.report.steps ?? []), ...(result.report.notes ?? [])],
        summarized: result.report.summary?.messagesCovered ?? 0,
      };
    }
    const strategy = tokenBudget({
      budget: targetTokens,
      pinFirstUserMessage: true,
      strategies: [toolResultCompaction(), selectiveToolCall({ keepLastToolCallGroups: 2 })],
    });
    const { messages: projection, report } = await applyCompaction(messages, strategy, { counter });
    const collapsed = projection
      .filter((message) => message.meta?.summary !== undefined)
      .reduce((sum, message) => sum + (message.meta?.summary ? coveredCount(message.meta.summary.covers) : 0), 0);
    return {
      projection:
        projection.length === messages.length && projection.every((message, index) => message === messages[index])
          ? messages
          : projection,
      notes: [...(report.steps ?? []), ...(report.notes ?? [])],
      summarized: collapsed,
    };
  }

  function toParams(params: CreateParams, messages: Message[]): CreateParams {
    const wire = toAnthropic(messages);
    const { system: _system, ...rest } = params;
    const next = {
      ...rest,
      messages: wire.messages as Anthropic.MessageParam[],
      ...(wire.system === undefined ? {} : { system: wire.system as string | Anthropic.TextBlockParam[] }),
    };
    return options.caching === false
      ? next
      : (applyCacheControl(next as unknown as CacheableRequest, {
          ttl: options.cacheTtl ?? '5m',
          native: true,
        }) as unknown as CreateParams);
  }

  /**
   * The API's count over ours for this conversation's last request (ctxhost's estimator is not the
   * provider's tokenizer): from the last reply's usage, else — only when the estimate is near the line —
   * from the count_tokens endpoint. Targets are divided by it, so they are met in the API's own units.
   */
  const scales = new Map<string, number>();
  async function scaleOf(
    key: string,
    params: CreateParams,
    messages: Message[],
    estimate: number,
    room: number,
  ): Promise<number> {
    const known = scales.get(key);
    if (known !== undefined || estimate < room * settings.lowWater) return known ?? 1;
    try {
      const counted = await client.messages.countTokens({
        model: params.model,
        messages: toParams(params, messages).messages,
        ...(params.system === undefined ? {} : { system: params.system }),
        ...(params.tools === undefined ? {} : { tools: params.tools }),
      });
      const scale = estimate > 0 ? counted.input_tokens / estimate : 1;
      scales.set(key, scale);
      return scale;
    } catch {
      return 1;
    }
  }

  /** Before sending: over `compactAt` of the room, compact to the low-water mark and remember it for the conversation. */
  async function prepare(params: CreateParams): Promise<{ key: string; messages: Message[]; estimate: number }> {
    const { key, messages } = current(params);
    const room = roomOf(params);
    const estimate = counter.countAll(messages);
    if (room === undefined) return { key, messages, estimate };
    const scale = await scaleOf(key, params, messages, estimate, room);
    if (estimate * scale <= room * settings.compactAt) return { key, messages, estimate };
    const projection = await compact(params, messages, Math.floor((room * settings.lowWater) / scale), 'preflight');
    if (projection !== messages) conversations.remember(key, params.messages, projection);
    return { key, messages: projection, estimate: counter.countAll(projection) };
  }

  async function create(params: CreateParams, requestOptions?: Anthropic.RequestOptions): Promise<Anthropic.Message> {
    const prepared = await prepare(params);
    const { key } = prepared;
    let { messages } = prepared;
    for (let attempt = 0; ; attempt++) {
      try {
        const reply = await client.messages.create(toParams(params, messages), requestOptions);
        const reported =
          reply.usage.input_tokens +
          (reply.usage.cache_creation_input_tokens ?? 0) +
          (reply.usage.cache_read_input_tokens ?? 0);
        const estimate = counter.countAll(messages);
        if (estimate > 0 && reported > 0) scales.set(key, reported / estimate);
        return reply;
      } catch (error) {
        const problem = toProviderError(error);
        const overflow =
          problem.kind === 'context_overflow' ||
          problem.kind === 'output_budget_overflow' ||
          problem.kind === 'request_too_large';
        if (!overflow || attempt >= settings.maxRecoveries) throw error;
        learn(params.model, problem.maxTokens);
        const estimate = counter.countAll(messages);
        // The API's own count scales ours: aim at the low-water mark of the real room, measured in our estimate's units.
        const scale = problem.currentTokens !== undefined && estimate > 0 ? estimate / problem.currentTokens : 1;
        const room = roomOf(params) ?? Math.floor(estimate * 0.6);
        const target = Math.max(
          1,
          Math.floor(Math.min(room * settings.lowWater * scale, estimate * 0.6 ** (attempt + 1))),
        );
        messages = await compact(params, messages, target, 'overflow');
        conversations.remember(key, params.messages, messages);
      }
    }
  }

  const messagesApi = new Proxy(client.messages, {
    get(target, property, receiver) {
      if (property === 'create')
        return (params: Anthropic.MessageCreateParams, requestOptions?: Anthropic.RequestOptions) =>
          params.stream === true
            ? prepare(params as unknown as CreateParams).then(({ messages }) =>
                target.create(
                  { ...toParams(params as unknown as CreateParams, messages), stream: true },
                  requestOptions,
                ),
              )
            : create(params, requestOptions);
      // stream() returns synchronously, so it gets the cache breakpoints but not the (async) preflight compaction.
      if (property === 'stream')
        return (params: CreateParams, requestOptions?: Anthropic.RequestOptions) =>
          target.stream(
            options.caching === false
              ? params
              : (applyCacheControl(params as unknown as CacheableRequest, {
                  ttl: options.cacheTtl ?? '5m',
                  native: true,
                }) as unknown as CreateParams),
            requestOptions,
          );
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
  return new Proxy(client, {
    get: (target, property, receiver) =>
      property === 'messages' ? messagesApi : (Reflect.get(target, property, receiver) as unknown),
  });
}

function definedOnly<T extends Record<string, unknown>>(
  values: T,
): Partial<{ [K in keyof T]: Exclude<T[K], undefined> }> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<{
    [K in keyof T]: Exclude<T[K], undefined>;
  }>;
}
