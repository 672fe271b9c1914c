import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { toAiSdkPrompt } from '@ctxhost/ai-sdk';
import {
  createPromptMirror,
  isRecoverableOverflow,
  normalizeProviderError as toProviderError,
  resolveContextWindow,
  type Host,
  type PartialConfig,
  type Session,
} from '@ctxhost/core';
import type {
  ProcessAPIErrorArgs,
  ProcessAPIErrorResult,
  Processor,
  ProcessLLMRequestArgs,
  ProcessLLMRequestResult,
  ProcessLLMResponseArgs,
} from '@mastra/core/processors';
import { createDefaultHost } from 'ctxhost';
import { MASTRA_ERROR_CODES, MastraIntegrationError } from './errors.js';
import { fromMastraMessage } from './from-mastra-prompt.js';
import { createRecoveryHandshake, RETRY_GRACE_MS } from './recovery-handshake.js';
import { sessionIdOf } from './session-id.js';
import { stepReply } from './step-reply.js';

/** The processor's id, and the name of its taps on the host. */
export const MASTRA_PROCESSOR = 'ctxhost-context-management';

export interface ContextManagementProcessorOptions {
  /** The host whose hooks run. Default: `createDefaultHost({ config })`, built on the first call. */
  host?: Host | Promise<Host>;
  /** Config for the default host (ignored when `host` is given). */
  config?: PartialConfig;
  /** The model's window in tokens. Default: `model.context_length` from the config, else the model registry's window for the step's model. */
  contextWindow?: number;
  /** The session of every call through this processor. Default: the memory thread of the request context, else derived from the opening messages. */
  sessionId?: string;
  /** The output budget the request hooks plan with (default 4096). */
  maxOutputTokens?: number;
}

/** A Mastra processor for `inputProcessors` (it implements `processLLMRequest`, `processLLMResponse` and `processAPIError`). */
export interface ContextManagementProcessor extends Processor<typeof MASTRA_PROCESSOR> {
  processLLMRequest(args: ProcessLLMRequestArgs): Promise<ProcessLLMRequestResult>;
  processLLMResponse(args: ProcessLLMResponseArgs): Promise<void>;
  processAPIError(args: ProcessAPIErrorArgs): Promise<ProcessAPIErrorResult | undefined>;
}

/** What `processLLMRequest` leaves in the processor's per-request state for the step's other hooks. */
interface CallState {
  sessionId: string;
  modelId: string;
}

const CALL = 'ctxhostCall';

/**
 * ctxhost in Mastra, as one processor:
 *
 *   const ctxhost = createContextManagementProcessor({ contextWindow: 200_000 });
 *   const agent = new Agent({ name, instructions, model, inputProcessors: [ctxhost], maxProcessorRetries: 3 });
 *
 * `processLLMRequest` mirrors the step's prompt into a ctxhost session and sends what
 * the host's request waterfall makes of it (engine, hygiene, cache breakpoints);
 * Mastra keeps its own messages as they are, so nothing is lost. `processAPIError`
 * runs the host's recovery cascade on an overflow and has Mastra retry the step
 * with the compacted prompt; `processLLMResponse` records the reply and its usage.
 */
export function createContextManagementProcessor(
  options: ContextManagementProcessorOptions = {},
): ContextManagementProcessor {
  checkOptions(options);
  const mirror = createPromptMirror(fromMastraMessage);
  const warned = new Set<string>();
  // The same processor may sit in both inputProcessors and errorProcessors: one error is handled once.
  const handled = new WeakMap<object, Promise<ProcessAPIErrorResult | undefined>>();
  let hostPromise: Promise<Host> | undefined;
  const handshake = createRecoveryHandshake(
    (sessionId) =>
      void hostPromise?.then((host) =>
        warnOnce(
          host,
          'no-retry',
          `ctxhost mastra: the recovery of session ${sessionId} asked Mastra to retry the step and no retry came within ${RETRY_GRACE_MS / 1000} s; give the agent \`maxProcessorRetries\` (3 is enough for the cascade) so it can retry`,
        ),
      ),
  );

  const hostOf = (): Promise<Host> => {
    hostPromise ??= Promise.resolve(
      options.host ?? createDefaultHost(options.config === undefined ? {} : { config: options.config }),
    ).then((host) => {
      host.hooks.resend.tapPromise(MASTRA_PROCESSOR, async ({ sessionId, signal }) =>
        handshake.resend(sessionId, signal),
      );
      host.hooks.sessionDeleted.tapPromise(MASTRA_PROCESSOR, async ({ sessionId }) => mirror.forget(sessionId));
      return host;
    });
    return hostPromise;
  };

  function warnOnce(host: Host, key: string, message: string): void {
    if (warned.has(key)) return;
    warned.add(key);
    host.logger.warn(message);
  }

  async function openSession(host: Host, call: CallState): Promise<Session> {
    const session = await host.session(call.sessionId);
    session.contextWindow ??= options.contextWindow ?? resolveContextWindow(host.config, call.modelId);
    return session;
  }

  /** The session's projection after the request waterfall, as the step's prompt. */
  async function project(host: Host, session: Session, call: CallState): Promise<LanguageModelV4Prompt> {
    const request = await host.hooks.beforeRequest.promise(
      {
        sessionId: session.id,
        model: call.modelId,
        messages: session.messages(),
        maxTokens: options.maxOutputTokens ?? 4096,
      },
      { sessionId: session.id, contextWindow: session.contextWindow },
    );
    return toAiSdkPrompt(request.messages, mirror.originals(session.id));
  }

  /** An overflow starts (or continues) the host's cascade and asks Mastra to retry; anything else passes through. */
  async function handleAPIError(call: CallState, error: unknown): Promise<ProcessAPIErrorResult | undefined> {
    if (!isRecoverableOverflow(error)) {
      handshake.settle(call.sessionId, false);
      return undefined;
    }
    const host = await hostOf();
    await host.emit('session.error', { sessionId: call.sessionId, error: toProviderError(error), raw: error });
    const retry = await handshake.overflowed(call.sessionId, () =>
      host.emit('session.idle', { sessionId: call.sessionId }),
    );
    return { retry };
  }

  return {
    id: MASTRA_PROCESSOR,
    name: 'ctxhost context management',
    description: 'Compacts the prompt before each model call and recovers from context overflows (ctxhost)',

    async processLLMRequest({ prompt: stepPrompt, model, state, requestContext }) {
      // Mastra hands over the prompt of the model's specification (v4 for AI SDK 7 providers; v2 and v3 differ from it
      // only in parts ctxhost reads as unmapped, which make the step pass untouched).
      const prompt = stepPrompt as unknown as LanguageModelV4Prompt;
      const host = await hostOf();
      const call: CallState = {
        sessionId: sessionIdOf(prompt, requestContext, options.sessionId),
        modelId: model.modelId,
      };
      let session = await openSession(host, call);
      let synced = await session.exclusive(() => mirror.sync(session, prompt));
      if (!synced.ok && 'restart' in synced) {
        // Another conversation under the same id: start the session afresh rather than mix the two.
        await session.delete();
        session = await openSession(host, call);
        synced = await session.exclusive(() => mirror.sync(session, prompt));
      }
      if (!synced.ok) {
        if ('unmappedType' in synced)
          warnOnce(
            host,
            `part:${synced.unmappedType}`,
            `ctxhost mastra: a prompt part of type "${synced.unmappedType}" has no place in ctxhost's message model; such prompts are sent untouched (no compaction, caching or recovery for them)`,
          );
        delete state[CALL];
        return undefined;
      }
      state[CALL] = call;
      handshake.retrying(call.sessionId);
      const projected = await session.exclusive(() => project(host, session, call));
      return { prompt: projected as unknown as ProcessLLMRequestArgs['prompt'] };
    },

    async processLLMResponse({ chunks, state, fromCache }) {
      const call = state[CALL] as CallState | undefined;
      // A step that failed comes here too, its error as a chunk: processAPIError handles it.
      if (call === undefined || fromCache || chunks.some((chunk) => chunk.type === 'error')) return;
      const host = await hostOf();
      const session = await openSession(host, call);
      const reply = stepReply(chunks);
      if (reply.message.parts.length > 0)
        await session.exclusive(() =>
          mirror.appendReply(session, reply.message, reply.usage === undefined ? {} : { usage: reply.usage }),
        );
      handshake.settle(call.sessionId, true);
      await host.emit('session.idle', { sessionId: call.sessionId });
    },

    async processAPIError({ error, state }) {
      const call = state[CALL] as CallState | undefined;
      if (call === undefined) return undefined;
      if (typeof error !== 'object' || error === null) return handleAPIError(call, error);
      const earlier = handled.get(error);
      if (earlier !== undefined) return earlier;
      const result = handleAPIError(call, error);
      handled.set(error, result);
      return result;
    },
  };
}

function checkOptions(options: ContextManagementProcessorOptions): void {
  const window = options.contextWindow;
  if (window !== undefined && !(Number.isInteger(window) && window > 0))
    throw new MastraIntegrationError(
      MASTRA_ERROR_CODES.optionsInvalid,
      `createContextManagementProcessor: contextWindow: expected a whole number of tokens above 0, got ${JSON.stringify(window)}`,
    );
  if (options.sessionId !== undefined && (typeof options.sessionId !== 'string' || options.sessionId.length === 0))
    throw new MastraIntegrationError(
      MASTRA_ERROR_CODES.optionsInvalid,
      `createContextManagementProcessor: sessionId: expected a non-empty string, got ${JSON.stringify(options.sessionId)}`,
    );
  const maxOutput = options.maxOutputTokens;
  if (maxOutput !== undefined && !(Number.isInteger(maxOutput) && maxOutput > 0))
    throw new MastraIntegrationError(
      MASTRA_ERROR_CODES.optionsInvalid,
      `createContextManagementProcessor: maxOutputTokens: expected a whole number of tokens above 0, got ${JSON.stringify(maxOutput)}`,
    );
}
