import {
  createStatelessIntegration,
  nativeFieldsOf,
  type IntegrationOptions,
  type Message,
  type StatelessTurn,
} from '@ctxhost/core';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { createDefaultHost } from 'ctxhost';
import { createMiddleware, type AgentMiddleware } from 'langchain';
import { LANGCHAIN_ERROR_CODES, LangchainIntegrationError } from './errors.js';
import { fromLangChainMessage } from './from-langchain-message.js';
import { modelFacts, toolDefinitions, type LangChainProvider } from './model-facts.js';
import { nativeModel, withCompactionBeta } from './native-model.js';
import { overflowOf } from './provider-error.js';
import { toUsage } from './reply-usage.js';
import { toLangChainRequest } from './to-langchain-messages.js';
import { throwOnWindowStop } from './window-stop.js';

/** The middleware's name (LangChain's `middleware.name`, and every tap on the host). */
export const LANGCHAIN_MIDDLEWARE = 'ctxhost-context-management';

/** The options every integration takes (`IntegrationOptions`); `maxOutputTokens` defaults to the chat model's `maxTokens`. */
export type ContextManagementMiddlewareOptions = IntegrationOptions;

type WrapModelCall = NonNullable<AgentMiddleware['wrapModelCall']>;
type ModelRequest = Parameters<WrapModelCall>[0];
type ModelCallHandler = Parameters<WrapModelCall>[1];
type ModelResponse = Awaited<ReturnType<ModelCallHandler>>;

/**
 * ctxhost as a LangChain v1 agent middleware:
 *
 *   const agent = createAgent({ model, tools, middleware: [contextManagementMiddleware()] });
 *
 * On core's stateless path: `wrapModelCall` hands the agent's whole request (system message and
 * messages) to ctxhost and sends what the host's request waterfall makes of it (engine, hygiene,
 * cache breakpoints); an overflow (an error, or Anthropic's window stop in a 200) is recovered there
 * through the host's cascade, so the agent gets the answer. The agent's state is never rewritten:
 * compaction changes the request; no session, no lock.
 */
export function contextManagementMiddleware(options: ContextManagementMiddlewareOptions = {}): AgentMiddleware {
  checkOptions(options);
  const integration = createStatelessIntegration<BaseMessage, unknown>({
    name: 'langchain',
    options,
    map: fromLangChainMessage,
    overflowOf,
    createDefaultHost: (config) => createDefaultHost({ config }),
  });

  /** The request through a model carrying native context management, where the model takes it (else said once). */
  const withNative = (
    request: ModelRequest,
    turn: StatelessTurn<BaseMessage, unknown>,
    provider: LangChainProvider,
  ) => {
    const fields = nativeFieldsOf(turn.providerOptions);
    if (fields === undefined) return request;
    const carried = nativeModel(fields, request.model, provider);
    if ('off' in carried) {
      integration.report(
        `native:${fields.vendor}`,
        `native compaction not sent (${carried.off}); the client engine keeps the context`,
      );
      return request;
    }
    return { ...request, model: carried.model as ModelRequest['model'] };
  };

  const wrapModelCall = async (request: ModelRequest, handler: ModelCallHandler): Promise<ModelResponse> => {
    // The system message as a head apart from the request's messages: they are not copied to put it in front.
    const head: BaseMessage[] = request.systemMessage.text === '' ? [] : [request.systemMessage];
    const facts = modelFacts(request.model, options.model);
    const turn: StatelessTurn<BaseMessage, unknown> = await integration.prepare(
      { head, list: request.messages },
      integration.request({
        ...(facts.name === undefined ? {} : { model: facts.name }),
        ...(options.maxOutputTokens === undefined && facts.maxTokens !== undefined
          ? { maxOutputTokens: facts.maxTokens }
          : {}),
        tools: toolDefinitions(request.tools),
      }),
    );
    const native = withNative(request, turn, facts.provider);
    const send = async (messages: readonly Message[] | undefined): Promise<ModelResponse> => {
      if (messages === undefined) return throwOnWindowStop(await handler(native));
      const storage = turn.sourceStorage;
      // The request's own messages go back as they came when the projection is exactly them (no copy).
      const caller = storage === undefined ? undefined : { list: request.messages, storage, offset: head.length };
      const projected = toLangChainRequest(
        messages,
        turn.originals,
        { cacheControl: facts.anthropic, provider: facts.provider },
        caller,
      );
      return throwOnWindowStop(
        await handler({
          ...native,
          model: withCompactionBeta(
            native.model,
            projected.sendsAnthropicCompaction,
            facts.provider,
          ) as ModelRequest['model'],
          messages: projected.messages,
          ...(projected.systemMessage === undefined ? {} : { systemMessage: projected.systemMessage }),
        }),
      );
    };
    return turn.run(send, {
      usageOf: (response) =>
        AIMessage.isInstance(response) && response.usage_metadata !== undefined
          ? toUsage(response.usage_metadata)
          : undefined,
    });
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
