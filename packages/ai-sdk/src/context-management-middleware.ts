import { createDefaultHost } from 'ctxhost';
import {
  createPromptMirror,
  isRecoverableOverflow as isRecoverable,
  normalizeProviderError as toProviderError,
  resolveContextWindow,
  type Host,
  type PartialConfig,
  type Session,
  type ToolDefinition,
} from '@ctxhost/core';
import type { LanguageModelMiddleware } from 'ai';
import type { AiCallOptions, AiGenerateResult, AiModel, AiStreamResult, AiUsage, AiContent } from './ai-sdk-types.js';
import { AI_SDK_ERROR_CODES, AiSdkMiddlewareError } from './errors.js';
import { collectReply } from './reply-collector.js';
import { replyMessage, toUsage } from './reply-message.js';
import { fromAiSdkMessage } from './from-ai-sdk-prompt.js';
import { sessionIdOf } from './session-id.js';
import { toAiSdkPrompt } from './to-ai-sdk-prompt.js';
import { throwOnWindowStop, WindowStop } from './window-stop.js';

export const AI_SDK_MIDDLEWARE = 'ai-sdk-middleware';

export interface ContextManagementMiddlewareOptions {
  /** The host whose hooks run (a `createDefaultHost()` of your own, a shared store, …). Default: `createDefaultHost({ config })`, built on the first call. */
  host?: Host | Promise<Host>;
  /** Config for the default host (ignored when `host` is given). */
  config?: PartialConfig;
  /** The model's window in tokens. Default: `model.context_length` from the config, else the model registry's window for the model's id. */
  contextWindow?: number;
  /** The session for calls that do not name one in `providerOptions.ctxhost.sessionId`. Default: derived from the opening messages. */
  sessionId?: string;
  /** The output budget the request hooks plan with when a call sets no `maxOutputTokens` (default 4096). */
  defaultMaxOutputTokens?: number;
}

interface CallState {
  sessionId: string;
  model: AiModel;
  original: AiCallOptions;
}

/** A call in recovery: what the `resend` tap runs, and what it got. */
interface Recovery {
  attempt(): Promise<void>;
  succeeded: boolean;
  error: unknown;
}

/**
 * ctxhost as an AI SDK language-model middleware:
 *
 *   const model = wrapLanguageModel({ model: anthropic('claude-sonnet-4-6'), middleware: contextManagementMiddleware() });
 *
 * `transformParams` mirrors the prompt into a ctxhost session and sends what the
 * host's request waterfall makes of it (engine, hygiene, cache breakpoints);
 * `wrapGenerate` / `wrapStream` recover from an overflow through the host's
 * recovery cascade and return the answer, so the caller never sees the error.
 */
export function contextManagementMiddleware(options: ContextManagementMiddlewareOptions = {}): LanguageModelMiddleware {
  checkOptions(options);
  const mirror = createPromptMirror(fromAiSdkMessage);
  const calls = new WeakMap<AiCallOptions, CallState>();
  const recoveries = new Map<string, Recovery>();
  const warned = new Set<string>();
  let hostPromise: Promise<Host> | undefined;

  const hostOf = (): Promise<Host> => {
    hostPromise ??= Promise.resolve(
      options.host ?? createDefaultHost(options.config === undefined ? {} : { config: options.config }),
    ).then((host) => {
      host.hooks.resend.tapPromise(AI_SDK_MIDDLEWARE, async ({ sessionId }) => {
        const recovery = recoveries.get(sessionId);
        if (recovery === undefined) return undefined;
        await recovery.attempt();
        return recovery.succeeded;
      });
      host.hooks.sessionDeleted.tapPromise(AI_SDK_MIDDLEWARE, async ({ sessionId }) => mirror.forget(sessionId));
      return host;
    });
    return hostPromise;
  };

  async function openSession(host: Host, sessionId: string, model: AiModel): Promise<Session> {
    const session = await host.session(sessionId);
    session.contextWindow ??= options.contextWindow ?? resolveContextWindow(host.config, model.modelId);
    return session;
  }

  /** The call's parameters with the prompt the host's waterfall makes of the session as it is now. */
  async function prepare(host: Host, session: Session, call: CallState): Promise<AiCallOptions> {
    const params = call.original;
    const request = await host.hooks.beforeRequest.promise(
      {
        sessionId: session.id,
        model: call.model.modelId,
        messages: session.messages(),
        tools: toolDefinitions(params),
        maxTokens: params.maxOutputTokens ?? options.defaultMaxOutputTokens ?? 4096,
      },
      { sessionId: session.id, contextWindow: session.contextWindow },
    );
    const prepared: AiCallOptions = {
      ...params,
      prompt: toAiSdkPrompt(request.messages, mirror.originals(session.id)),
    };
    calls.set(prepared, call);
    return prepared;
  }

  function warnOnce(host: Host, type: string): void {
    if (warned.has(type)) return;
    warned.add(type);
    host.logger.warn(
      `ctxhost ai-sdk middleware: a prompt part of type "${type}" has no place in ctxhost's message model; such prompts are sent untouched (no compaction, caching or recovery for them)`,
      { partType: type },
    );
  }

  async function recordReply(
    host: Host,
    call: CallState,
    content: readonly AiContent[],
    usage: AiUsage | undefined,
  ): Promise<void> {
    const session = await openSession(host, call.sessionId, call.model);
    const message = replyMessage(content);
    if (message.parts.length > 0)
      await session.exclusive(() =>
        mirror.appendReply(session, message, usage === undefined ? {} : { usage: toUsage(usage) }),
      );
    await host.emit('session.idle', { sessionId: call.sessionId });
  }

  /** Runs the host's cascade for a failed call; the cascade's `resend` calls `send` with the compacted prompt. Throws the last error when it cannot recover. */
  async function recover<T>(
    host: Host,
    call: CallState,
    error: unknown,
    send: (params: AiCallOptions) => Promise<T>,
  ): Promise<T> {
    const session = await openSession(host, call.sessionId, call.model);
    let result: { value: T } | undefined;
    const recovery: Recovery = {
      succeeded: false,
      error,
      attempt: async () => {
        try {
          const params = await session.exclusive(() => prepare(host, session, call));
          result = { value: await send(params) };
          recovery.succeeded = true;
        } catch (retryError) {
          recovery.error = retryError;
          recovery.succeeded = false;
          if (isRecoverable(retryError))
            await host.emit('session.error', {
              sessionId: call.sessionId,
              error: toProviderError(retryError),
              raw: retryError,
            });
        }
      },
    };
    recoveries.set(call.sessionId, recovery);
    try {
      await host.emit('session.error', { sessionId: call.sessionId, error: toProviderError(error), raw: error });
      await host.emit('session.idle', { sessionId: call.sessionId });
    } finally {
      recoveries.delete(call.sessionId);
    }
    if (recovery.succeeded && result !== undefined) return result.value;
    throw recovery.error;
  }

  return {
    specificationVersion: 'v4',

    async transformParams({ params, model }) {
      const host = await hostOf();
      const sessionId = sessionIdOf(params, options.sessionId);
      let session = await openSession(host, sessionId, model);
      const call: CallState = { sessionId, model, original: params };
      let synced = await session.exclusive(() => mirror.sync(session, params.prompt));
      if (!synced.ok && 'restart' in synced) {
        // Another conversation under the same id: start the session afresh rather than mix the two.
        await session.delete();
        session = await openSession(host, sessionId, model);
        synced = await session.exclusive(() => mirror.sync(session, params.prompt));
      }
      if (!synced.ok) {
        if ('unmappedType' in synced) warnOnce(host, synced.unmappedType);
        return params;
      }
      return session.exclusive(() => prepare(host, session, call));
    },

    async wrapGenerate({ doGenerate, params }) {
      const call = calls.get(params);
      if (call === undefined) return doGenerate();
      const host = await hostOf();
      let result: AiGenerateResult;
      try {
        result = throwOnWindowStop(await doGenerate());
      } catch (error) {
        if (!isRecoverable(error)) throw error;
        try {
          result = await recover(host, call, error, async (retry) =>
            throwOnWindowStop(await call.model.doGenerate(retry)),
          );
        } catch (final) {
          if (final instanceof WindowStop) return final.result;
          throw final;
        }
      }
      await recordReply(host, call, result.content, result.usage);
      return result;
    },

    async wrapStream({ doStream, params }) {
      const call = calls.get(params);
      if (call === undefined) return doStream();
      const host = await hostOf();
      let result: AiStreamResult;
      try {
        result = await doStream();
      } catch (error) {
        if (!isRecoverable(error)) throw error;
        result = await recover(host, call, error, async (retry) => call.model.doStream(retry));
      }
      const record = collectReply(async (reply) => {
        try {
          await recordReply(host, call, reply.content, reply.usage);
        } catch (error) {
          host.logger.warn(
            `ctxhost ai-sdk middleware: could not record the streamed reply of session ${call.sessionId}`,
            { error: String(error) },
          );
        }
      });
      return { ...result, stream: result.stream.pipeThrough(record) };
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
