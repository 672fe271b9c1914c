import { createHash } from 'node:crypto';
import {
  createPromptMirror,
  isRecoverableOverflow,
  newMessageId,
  normalizeProviderError as toProviderError,
  resolveContextWindow,
  type Host,
  type Message,
  type PartialConfig,
  type Session,
  type Usage,
} from '@ctxhost/core';
import type {
  AgentInputItem,
  CallModelInputFilter,
  Model,
  ModelRequest,
  ModelResponse,
  StreamEvent,
} from '@openai/agents';
import { createDefaultHost } from 'ctxhost';
import { OPENAI_AGENTS_ERROR_CODES, OpenaiAgentsIntegrationError } from './errors.js';
import { fromAgentItem, type MirrorItem } from './from-agent-items.js';
import { toUsage } from './reply-usage.js';
import { toAgentItems } from './to-agent-items.js';

export const OPENAI_AGENTS = 'openai-agents';

export interface ContextManagementOptions {
  /** The host whose hooks run. Default: `createDefaultHost({ config })`, built on the first call. */
  host?: Host | Promise<Host>;
  config?: PartialConfig;
  /** The model's window in tokens. Default: `model.context_length` from the config, else the registry's window for `model`. */
  contextWindow?: number;
  /** The model name the window and prices are looked up by (the agent's `model` when it is a string). */
  model?: string;
  /** The session every run of this instance belongs to. Default: derived from the instructions and the first user message. */
  sessionId?: string;
  /** The output budget the request hooks plan with (default 4096). */
  maxOutputTokens?: number;
}

export interface ContextManagement {
  /** For `run(agent, input, { callModelInputFilter })` or a `Runner`'s config: the session's projection after the request hooks, as the model's input. */
  callModelInputFilter: CallModelInputFilter;
  /** The model, recovering from overflows: the caller's run never sees the error. */
  wrapModel(model: Model): Model;
}

interface CallState {
  sessionId: string;
  model: string | undefined;
}

/**
 * ctxhost in the OpenAI Agents SDK: the input filter runs the host's request
 * waterfall (engine, hygiene) on a session that mirrors the run's items, and
 * the wrapped model recovers from an overflow through the host's cascade.
 *
 *   const ctx = createContextManagement({ contextWindow: 128_000 });
 *   const agent = new Agent({ name, instructions, model: ctx.wrapModel(new OpenAIChatCompletionsModel(client, 'gpt-4o')) });
 *   await run(agent, input, { callModelInputFilter: ctx.callModelInputFilter });
 */
export function createContextManagement(options: ContextManagementOptions = {}): ContextManagement {
  checkOptions(options);
  const mirror = createPromptMirror<MirrorItem, unknown>(fromAgentItem);
  const bySignature = new Map<string, CallState>();
  const recoveries = new Map<string, () => Promise<boolean>>();
  const warned = new Set<string>();
  let hostPromise: Promise<Host> | undefined;

  const hostOf = (): Promise<Host> => {
    hostPromise ??= Promise.resolve(
      options.host ?? createDefaultHost(options.config === undefined ? {} : { config: options.config }),
    ).then((host) => {
      host.hooks.resend.tapPromise(OPENAI_AGENTS, async ({ sessionId }) => recoveries.get(sessionId)?.());
      host.hooks.sessionDeleted.tapPromise(OPENAI_AGENTS, async ({ sessionId }) => mirror.forget(sessionId));
      return host;
    });
    return hostPromise;
  };

  async function openSession(host: Host, call: CallState): Promise<Session> {
    const session = await host.session(call.sessionId);
    session.contextWindow ??= options.contextWindow ?? resolveContextWindow(host.config, call.model);
    return session;
  }

  /** The session's projection after the request waterfall, as instructions and items. */
  async function project(
    host: Host,
    session: Session,
    call: CallState,
  ): Promise<{ instructions: string | undefined; input: AgentInputItem[] }> {
    const request = await host.hooks.beforeRequest.promise(
      {
        sessionId: session.id,
        model: call.model ?? 'unknown',
        messages: session.messages(),
        maxTokens: options.maxOutputTokens ?? 4096,
      },
      { sessionId: session.id, contextWindow: session.contextWindow },
    );
    const projected = toAgentItems(request.messages, mirror.originals(session.id));
    bySignature.set(signature(projected.instructions, projected.input), call);
    return projected;
  }

  async function recordReply(
    host: Host,
    call: CallState,
    response: { output: readonly unknown[]; usage: Usage },
  ): Promise<void> {
    const session = await openSession(host, call);
    const replies: Message[] = [];
    for (const item of response.output) {
      const mapped = fromAgentItem(item as MirrorItem, newMessageId());
      if (mapped.ok && mapped.message.parts.length > 0) replies.push(mapped.message);
    }
    await session.exclusive(async () => {
      for (const [index, message] of replies.entries())
        await mirror.appendReply(session, message, index === replies.length - 1 ? { usage: response.usage } : {});
    });
    await host.emit('session.idle', { sessionId: call.sessionId });
  }

  /** Runs the host's cascade for a failed call; its `resend` calls `attempt` with the compacted input. Throws the last error when it cannot recover. */
  async function recover<T>(
    host: Host,
    call: CallState,
    error: unknown,
    attempt: (input: { instructions: string | undefined; input: AgentInputItem[] }) => Promise<T>,
  ): Promise<T> {
    const session = await openSession(host, call);
    let result: { value: T } | undefined;
    let lastError = error;
    recoveries.set(call.sessionId, async () => {
      try {
        result = { value: await attempt(await session.exclusive(() => project(host, session, call))) };
        return true;
      } catch (retryError) {
        lastError = retryError;
        if (isRecoverableOverflow(retryError))
          await host.emit('session.error', {
            sessionId: call.sessionId,
            error: toProviderError(retryError),
            raw: retryError,
          });
        return false;
      }
    });
    try {
      await host.emit('session.error', { sessionId: call.sessionId, error: toProviderError(error), raw: error });
      await host.emit('session.idle', { sessionId: call.sessionId });
    } finally {
      recoveries.delete(call.sessionId);
    }
    if (result !== undefined) return result.value;
    throw lastError;
  }

  const callModelInputFilter: CallModelInputFilter = async ({ modelData, agent }) => {
    const host = await hostOf();
    const items: MirrorItem[] = [
      ...(modelData.instructions === undefined
        ? []
        : [{ role: 'system' as const, content: modelData.instructions, instructionsOnly: true as const }]),
      ...modelData.input,
    ];
    const call: CallState = {
      sessionId: options.sessionId ?? derivedSessionId(modelData.instructions, modelData.input),
      model: options.model ?? (typeof agent.model === 'string' && agent.model !== '' ? agent.model : undefined),
    };
    let session = await openSession(host, call);
    let synced = await session.exclusive(() => mirror.sync(session, items));
    if (!synced.ok && 'restart' in synced) {
      await session.delete();
      session = await openSession(host, call);
      synced = await session.exclusive(() => mirror.sync(session, items));
    }
    if (!synced.ok) {
      if ('unmappedType' in synced && !warned.has(synced.unmappedType)) {
        warned.add(synced.unmappedType);
        host.logger.warn(
          `ctxhost openai-agents: an input item of type "${synced.unmappedType}" has no place in ctxhost's message model; such inputs are sent untouched (no compaction or recovery for them)`,
          { itemType: synced.unmappedType },
        );
      }
      return modelData;
    }
    const projected = await session.exclusive(() => project(host, session, call));
    return {
      input: projected.input,
      ...(projected.instructions === undefined ? {} : { instructions: projected.instructions }),
    };
  };

  function wrapModel(inner: Model): Model {
    const callOf = (request: ModelRequest): CallState | undefined =>
      Array.isArray(request.input) ? bySignature.get(signature(request.systemInstructions, request.input)) : undefined;
    const retried = (
      request: ModelRequest,
      projected: { instructions: string | undefined; input: AgentInputItem[] },
    ): ModelRequest => ({
      ...request,
      input: projected.input,
      ...(projected.instructions === undefined ? {} : { systemInstructions: projected.instructions }),
    });
    return {
      ...(inner.supportsPromptModelSelection === undefined
        ? {}
        : { supportsPromptModelSelection: inner.supportsPromptModelSelection }),
      ...(inner.getRetryAdvice === undefined ? {} : { getRetryAdvice: (args) => inner.getRetryAdvice!(args) }),
      async getResponse(request) {
        const call = callOf(request);
        if (call === undefined) return inner.getResponse(request);
        const host = await hostOf();
        let response: ModelResponse;
        try {
          response = await inner.getResponse(request);
        } catch (error) {
          if (!isRecoverableOverflow(error)) throw error;
          response = await recover(host, call, error, (projected) => inner.getResponse(retried(request, projected)));
        }
        await recordReply(host, call, { output: response.output, usage: toUsage(response.usage) });
        return response;
      },
      async *getStreamedResponse(request) {
        const call = callOf(request);
        if (call === undefined) {
          yield* inner.getStreamedResponse(request);
          return;
        }
        const host = await hostOf();
        const start = async (
          next: ModelRequest,
        ): Promise<{ events: AsyncIterator<StreamEvent>; first: IteratorResult<StreamEvent> }> => {
          const events = inner.getStreamedResponse(next)[Symbol.asyncIterator]();
          return { events, first: await events.next() };
        };
        let stream: { events: AsyncIterator<StreamEvent>; first: IteratorResult<StreamEvent> };
        try {
          stream = await start(request);
        } catch (error) {
          if (!isRecoverableOverflow(error)) throw error;
          stream = await recover(host, call, error, (projected) => start(retried(request, projected)));
        }
        for (let step = stream.first; step.done !== true; step = await stream.events.next()) {
          const event = step.value;
          if (event.type === 'response_done')
            await recordReply(host, call, { output: event.response.output, usage: toUsage(event.response.usage) });
          yield event;
        }
      },
    };
  }

  return { callModelInputFilter, wrapModel };
}

function signature(instructions: string | undefined, input: readonly AgentInputItem[]): string {
  return createHash('sha256')
    .update(JSON.stringify([instructions ?? null, input.length, input.at(-1) ?? null]))
    .digest('hex');
}

function derivedSessionId(instructions: string | undefined, input: readonly AgentInputItem[]): string {
  const user = input.find((item) => (item as { role?: unknown }).role === 'user');
  return `openai-agents-${createHash('sha256')
    .update(JSON.stringify([instructions ?? null, user ?? null]))
    .digest('hex')
    .slice(0, 24)}`;
}

function checkOptions(options: ContextManagementOptions): void {
  const window = options.contextWindow;
  if (window !== undefined && !(Number.isInteger(window) && window > 0))
    throw new OpenaiAgentsIntegrationError(
      OPENAI_AGENTS_ERROR_CODES.optionsInvalid,
      `createContextManagement: contextWindow: expected a whole number of tokens above 0, got ${JSON.stringify(window)}`,
    );
  if (options.sessionId !== undefined && (typeof options.sessionId !== 'string' || options.sessionId.length === 0))
    throw new OpenaiAgentsIntegrationError(
      OPENAI_AGENTS_ERROR_CODES.optionsInvalid,
      `createContextManagement: sessionId: expected a non-empty string, got ${JSON.stringify(options.sessionId)}`,
    );
}
