import {
  createPromptMirror,
  newMessageId,
  resolveContextWindow,
  type Host,
  type PartialConfig,
  type Session,
} from '@ctxhost/core';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { createDefaultHost } from 'ctxhost';
import { createMiddleware, type AgentMiddleware } from 'langchain';
import { LANGCHAIN_ERROR_CODES, LangchainIntegrationError } from './errors.js';
import { fromLangChainMessage } from './from-langchain-message.js';
import { modelFacts, toolDefinitions, type ModelFacts } from './model-facts.js';
import { overflowOf } from './provider-error.js';
import { toUsage } from './reply-usage.js';
import { sessionIdOf } from './session-id.js';
import { toLangChainRequest, type LangChainRequest } from './to-langchain-messages.js';
import { throwOnWindowStop, WindowStop } from './window-stop.js';

/** The middleware's name (LangChain's `middleware.name`, and every tap on the host). */
export const LANGCHAIN_MIDDLEWARE = 'ctxhost-context-management';

export interface ContextManagementMiddlewareOptions {
  /** The host whose hooks run (your own `createDefaultHost()`, a shared store, …). Default: `createDefaultHost({ config })`, built on the first call. */
  host?: Host | Promise<Host>;
  /** Config for the default host (ignored when `host` is given). */
  config?: PartialConfig;
  /** The model's window in tokens. Default: `model.context_length` from the config, else the model registry's window for the chat model's `model`. */
  contextWindow?: number;
  /** The model name the window and prices are looked up by. Default: the chat model's `model` field. */
  model?: string;
  /** The session of every call. Default: the LangGraph thread (`configurable.thread_id`), else derived from the opening messages. */
  sessionId?: string;
  /** The output budget the request hooks plan with. Default: the chat model's `maxTokens`, else 4096. */
  maxOutputTokens?: number;
}

type WrapModelCall = NonNullable<AgentMiddleware['wrapModelCall']>;
type ModelRequest = Parameters<WrapModelCall>[0];
type ModelCallHandler = Parameters<WrapModelCall>[1];
type ModelResponse = Awaited<ReturnType<ModelCallHandler>>;

interface CallState {
  sessionId: string;
  facts: ModelFacts;
  tools: ReturnType<typeof toolDefinitions>;
}

/**
 * ctxhost as a LangChain v1 agent middleware:
 *
 *   const agent = createAgent({ model, tools, middleware: [contextManagementMiddleware()] });
 *
 * `wrapModelCall` mirrors the agent's messages into a ctxhost session and sends
 * what the host's request waterfall makes of them (engine, hygiene, cache
 * breakpoints); an overflow is recovered there through the host's cascade, so
 * the agent gets the answer. The agent's state is never rewritten: compaction
 * changes the request, the originals stay in the state and in the store.
 */
export function contextManagementMiddleware(options: ContextManagementMiddlewareOptions = {}): AgentMiddleware {
  checkOptions(options);
  const mirror = createPromptMirror<BaseMessage, unknown>(fromLangChainMessage);
  const recoveries = new Map<string, () => Promise<boolean>>();
  const warned = new Set<string>();
  let hostPromise: Promise<Host> | undefined;

  const hostOf = (): Promise<Host> => {
    hostPromise ??= Promise.resolve(
      options.host ?? createDefaultHost(options.config === undefined ? {} : { config: options.config }),
    ).then((host) => {
      host.hooks.resend.tapPromise(LANGCHAIN_MIDDLEWARE, async ({ sessionId }) => recoveries.get(sessionId)?.());
      host.hooks.sessionDeleted.tapPromise(LANGCHAIN_MIDDLEWARE, async ({ sessionId }) => mirror.forget(sessionId));
      return host;
    });
    return hostPromise;
  };

  async function openSession(host: Host, call: CallState): Promise<Session> {
    const session = await host.session(call.sessionId);
    session.contextWindow ??= options.contextWindow ?? resolveContextWindow(host.config, call.facts.name);
    return session;
  }

  /** The session's projection after the request waterfall, as LangChain messages. */
  async function project(host: Host, session: Session, call: CallState): Promise<LangChainRequest> {
    const request = await host.hooks.beforeRequest.promise(
      {
        sessionId: session.id,
        model: call.facts.name ?? 'unknown',
        messages: session.messages(),
        tools: call.tools,
        maxTokens: options.maxOutputTokens ?? call.facts.maxTokens ?? 4096,
      },
      { sessionId: session.id, contextWindow: session.contextWindow },
    );
    return toLangChainRequest(request.messages, mirror.originals(session.id), { cacheControl: call.facts.anthropic });
  }

  function warnOnce(host: Host, type: string): void {
    if (warned.has(type)) return;
    warned.add(type);
    host.logger.warn(
      `ctxhost langchain middleware: a message or content block of type "${type}" has no place in ctxhost's message model; such requests are sent untouched (no compaction, caching or recovery for them)`,
      { blockType: type },
    );
  }

  async function recordReply(host: Host, call: CallState, reply: AIMessage): Promise<void> {
    const session = await openSession(host, call);
    const mapped = fromLangChainMessage(reply, newMessageId());
    if (mapped.ok && mapped.message.parts.length > 0) {
      const usage = reply.usage_metadata === undefined ? {} : { usage: toUsage(reply.usage_metadata) };
      await session.exclusive(() => mirror.appendReply(session, mapped.message, usage));
    }
    await host.emit('session.idle', { sessionId: call.sessionId });
  }

  /** Runs the host's cascade for a failed call; its `resend` calls `send` with the compacted request. Throws the last error when it cannot recover. */
  async function recover(
    host: Host,
    call: CallState,
    error: unknown,
    send: (request: LangChainRequest) => Promise<ModelResponse>,
  ): Promise<ModelResponse> {
    const session = await openSession(host, call);
    let result: { value: ModelResponse } | undefined;
    let lastError = error;
    recoveries.set(call.sessionId, async () => {
      try {
        result = { value: await send(await session.exclusive(() => project(host, session, call))) };
        return true;
      } catch (retryError) {
        lastError = retryError;
        const overflow = overflowOf(retryError);
        if (overflow !== undefined)
          await host.emit('session.error', { sessionId: call.sessionId, error: overflow, raw: retryError });
        return false;
      }
    });
    try {
      await host.emit('session.error', { sessionId: call.sessionId, error: overflowOf(error)!, raw: error });
      await host.emit('session.idle', { sessionId: call.sessionId });
    } finally {
      recoveries.delete(call.sessionId);
    }
    if (result !== undefined) return result.value;
    throw lastError;
  }

  /** Brings the session up to the agent's messages; false when a message cannot be mapped (the request then goes untouched). */
  async function sync(host: Host, call: CallState, prompt: BaseMessage[]): Promise<boolean> {
    let session = await openSession(host, call);
    let synced = await session.exclusive(() => mirror.sync(session, prompt));
    if (!synced.ok && 'restart' in synced) {
      // Another conversation under the same id: start the session afresh rather than mix the two.
      await session.delete();
      session = await openSession(host, call);
      synced = await session.exclusive(() => mirror.sync(session, prompt));
    }
    if (!synced.ok && 'unmappedType' in synced) warnOnce(host, synced.unmappedType);
    return synced.ok;
  }

  const wrapModelCall = async (request: ModelRequest, handler: ModelCallHandler): Promise<ModelResponse> => {
    const host = await hostOf();
    const system = request.systemMessage.text === '' ? undefined : request.systemMessage;
    const call: CallState = {
      sessionId: sessionIdOf(options.sessionId, request.runtime.configurable, system, request.messages),
      facts: modelFacts(request.model, options.model),
      tools: toolDefinitions(request.tools),
    };
    if (!(await sync(host, call, system === undefined ? request.messages : [system, ...request.messages])))
      return handler(request);
    const send = async (projected: LangChainRequest): Promise<ModelResponse> =>
      throwOnWindowStop(
        await handler({
          ...request,
          messages: projected.messages,
          ...(projected.systemMessage === undefined ? {} : { systemMessage: projected.systemMessage }),
        }),
      );
    const session = await openSession(host, call);
    let response: ModelResponse;
    try {
      response = await send(await session.exclusive(() => project(host, session, call)));
    } catch (error) {
      if (overflowOf(error) === undefined) throw error;
      try {
        response = await recover(host, call, error, send);
      } catch (final) {
        if (final instanceof WindowStop) return final.reply;
        throw final;
      }
    }
    if (AIMessage.isInstance(response)) await recordReply(host, call, response);
    return response;
  };

  return createMiddleware({ name: LANGCHAIN_MIDDLEWARE, wrapModelCall }) as AgentMiddleware;
}

function checkOptions(options: ContextManagementMiddlewareOptions): void {
  const window = options.contextWindow;
  if (window !== undefined && !(Number.isInteger(window) && window > 0))
    throw new LangchainIntegrationError(
      LANGCHAIN_ERROR_CODES.optionsInvalid,
      `contextManagementMiddleware: contextWindow: expected a whole number of tokens above 0, got ${JSON.stringify(window)}`,
    );
  for (const key of ['sessionId', 'model'] as const) {
    const value = options[key];
    if (value !== undefined && (typeof value !== 'string' || value.length === 0))
      throw new LangchainIntegrationError(
        LANGCHAIN_ERROR_CODES.optionsInvalid,
        `contextManagementMiddleware: ${key}: expected a non-empty string, got ${JSON.stringify(value)}`,
      );
  }
  const output = options.maxOutputTokens;
  if (output !== undefined && !(Number.isInteger(output) && output > 0))
    throw new LangchainIntegrationError(
      LANGCHAIN_ERROR_CODES.optionsInvalid,
      `contextManagementMiddleware: maxOutputTokens: expected a whole number of tokens above 0, got ${JSON.stringify(output)}`,
    );
}
