import { createDefaultHost } from 'ctxhost';
import {
  createStatelessIntegration,
  nativeFieldsOf,
  warnDeprecated,
  type IntegrationOptions,
  type Message,
  type StatelessTurn,
  type ToolDefinition,
} from '@ctxhost/core';
import type { LanguageModelMiddleware } from 'ai';
import type { AiCallOptions, AiMessage, AiModel, AiPart } from './ai-sdk-types.js';
import { AI_SDK_ERROR_CODES, AiSdkMiddlewareError } from './errors.js';
import { fromAiSdkMessage } from './from-ai-sdk-prompt.js';
import { nativeProviderOptions, withCompactionBeta } from './native-provider-options.js';
import { renderAiSdkPrompt } from './to-ai-sdk-prompt.js';
import { throwOnStreamWindowStop, throwOnWindowStop } from './window-stop.js';

export const AI_SDK_MIDDLEWARE = 'ai-sdk-middleware';

export interface ContextManagementMiddlewareOptions extends IntegrationOptions {
  /** @deprecated Use `maxOutputTokens` (the same option in every integration). Said once. */
  defaultMaxOutputTokens?: number;
}

interface CallState {
  turn: StatelessTurn<AiMessage, AiPart>;
  model: AiModel;
  params: AiCallOptions;
}

/**
 * ctxhost as an AI SDK language-model middleware:
 *
 *   const model = wrapLanguageModel({ model: anthropic('claude-sonnet-4-6'), middleware: contextManagementMiddleware() });
 *
 * On core's stateless path: `transformParams` hands the whole prompt to ctxhost and sends the projection
 * the host's hooks make of it (engine, hygiene, cache breakpoints); `wrapGenerate` and `wrapStream`
 * recover an overflow (an error, or a window stop in a 200, streamed or not) through the host's
 * cascade, so the caller gets the answer. No session, no lock: conversations that open alike share
 * nothing but identical compactions of identical messages.
 */
export function contextManagementMiddleware(options: ContextManagementMiddlewareOptions = {}): LanguageModelMiddleware {
  checkOptions(options);
  const { defaultMaxOutputTokens, ...shared } = options;
  if (defaultMaxOutputTokens !== undefined)
    warnDeprecated(
      'ai-sdk:defaultMaxOutputTokens',
      'contextManagementMiddleware: defaultMaxOutputTokens is now maxOutputTokens; the old name still works',
    );
  const integration = createStatelessIntegration<AiMessage, AiPart>({
    name: 'ai-sdk',
    options: {
      ...shared,
      ...(shared.maxOutputTokens === undefined && defaultMaxOutputTokens !== undefined
        ? { maxOutputTokens: defaultMaxOutputTokens }
        : {}),
    },
    map: fromAiSdkMessage,
    createDefaultHost: (config) => createDefaultHost({ config }),
  });
  const calls = new WeakMap<AiCallOptions, CallState>();

  const paramsFor = (call: CallState, messages: readonly Message[] | undefined): AiCallOptions => {
    if (messages === undefined) return call.params;
    const storage = call.turn.sourceStorage;
    // The AI SDK's own prompt goes back as it came when the projection is exactly it (no copy).
    const caller = storage === undefined ? undefined : { list: call.params.prompt, storage, offset: 0 };
    const rendered = renderAiSdkPrompt(messages, call.turn.originals, call.model.provider, caller);
    const providerOptions = withCompactionBeta(
      call.params.providerOptions,
      rendered.sendsAnthropicCompaction,
      call.model.provider,
    );
    return {
      ...call.params,
      prompt: rendered.prompt,
      ...(providerOptions === undefined ? {} : { providerOptions }),
    };
  };

  /** The call with native compaction in its provider's own options, where the provider takes them (else said once). */
  const withNative = (params: AiCallOptions, turn: StatelessTurn<AiMessage, AiPart>, model: AiModel): AiCallOptions => {
    const fields = nativeFieldsOf(turn.providerOptions);
    if (fields === undefined) return params;
    const carried = nativeProviderOptions(fields, model.provider, params.providerOptions);
    if ('off' in carried) {
      integration.report(
        `native:${model.provider}`,
        `native compaction not sent (${carried.off}); the client engine keeps the context`,
      );
      return params;
    }
    return { ...params, providerOptions: carried.providerOptions };
  };

  return {
    specificationVersion: 'v4',

    async transformParams({ params, model }) {
      if (params.providerOptions?.['ctxhost']?.['sessionId'] !== undefined)
        warnDeprecated(
          'ai-sdk:providerOptions.ctxhost.sessionId',
          'providerOptions.ctxhost.sessionId is no longer used: a conversation is identified by its messages; remove it',
        );
      const turn = await integration.prepare(
        params.prompt,
        integration.request({
          model: model.modelId,
          ...(params.maxOutputTokens === undefined ? {} : { maxOutputTokens: params.maxOutputTokens }),
          tools: toolDefinitions(params),
          ...(params.abortSignal === undefined ? {} : { signal: params.abortSignal }),
        }),
      );
      const call: CallState = { turn, model, params: withNative(params, turn, model) };
      const prepared = paramsFor(call, turn.messages);
      calls.set(prepared, call);
      return prepared;
    },

    async wrapGenerate({ doGenerate, params }) {
      const call = calls.get(params);
      if (call === undefined) return doGenerate();
      let first = true;
      return call.turn.run(async (messages) => {
        const retry = !first;
        first = false;
        return throwOnWindowStop(retry ? await call.model.doGenerate(paramsFor(call, messages)) : await doGenerate());
      });
    },

    async wrapStream({ doStream, params }) {
      const call = calls.get(params);
      if (call === undefined) return doStream();
      let first = true;
      return call.turn.run(async (messages) => {
        const retry = !first;
        first = false;
        return throwOnStreamWindowStop(retry ? await call.model.doStream(paramsFor(call, messages)) : await doStream());
      });
    },
  };
}

function toolDefinitions(params: AiCallOptions): ToolDefinition[] {
  return (params.tools ?? []).flatMap((tool) =>
    tool.type === 'function'
      ? [
          {
            name: tool.name,
            description: tool.description ?? '',
            inputSchema: { ...(tool.inputSchema as Record<string, never>), type: 'object' as const },
          },
        ]
      : [],
  );
}

function checkOptions(options: ContextManagementMiddlewareOptions): void {
  const window = options.contextWindow;
  if (window !== undefined && !(Number.isInteger(window) && window > 0))
    throw new AiSdkMiddlewareError(
      AI_SDK_ERROR_CODES.optionsInvalid,
      `contextManagementMiddleware: contextWindow: expected a whole number of tokens above 0, got ${JSON.stringify(window)}`,
    );
  if (options.sessionId !== undefined && (typeof options.sessionId !== 'string' || options.sessionId.length === 0))
    throw new AiSdkMiddlewareError(
      AI_SDK_ERROR_CODES.sessionIdInvalid,
      `contextManagementMiddleware: sessionId: expected a non-empty string, got ${JSON.stringify(options.sessionId)}`,
    );
}
