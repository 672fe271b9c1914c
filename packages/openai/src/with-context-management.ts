import type OpenAI from 'openai';
import {
  createStatelessIntegration,
  isInvalidEncryptedContent,
  nativeFieldsOf,
  readableInPlaceOfOpaque,
  type Message,
  type ReportOnce,
  type StatelessTurn,
  type ToolDefinition,
} from '@ctxhost/core';
import { fromChatMessage, toChatMessages, type ChatMessage } from './chat-prompt.js';
import { nativeContextManagement } from './native-context-management.js';
import { openAIOverflowOf } from './openai-overflow.js';
import { fromResponsesItem, responsesPrompt, toResponsesPrompt, type ResponsesPromptItem } from './responses-prompt.js';
import { resolveWrapperOptions, type OpenAIContextManagementOptions } from './wrapper-options.js';

export type { OpenAIContextManagementOptions, OpenAIWrapperCompactionEvent } from './wrapper-options.js';

type ChatParams = OpenAI.Chat.ChatCompletionCreateParams;
type ResponseParams = OpenAI.Responses.ResponseCreateParams;
type RequestOptions = OpenAI.RequestOptions;

/**
 * Your existing OpenAI SDK loop on core's stateless path: the returned client's
 * `chat.completions.create` and `responses.create` (streamed or not) behave as before, but the prompt
 * goes through the host's request hooks (engine, hygiene, native compaction for `responses.create`) and
 * an overflow (any OpenAI-compatible server's wording) is recovered through the host's cascade: the
 * caller never sees it. No session, no lock: a conversation is its messages. When ctxhost's own
 * machinery fails, the request goes out as the caller sent it, said once.
 *
 *   const client = withContextManagement(new OpenAI());
 *   const reply = await client.chat.completions.create({ model: 'gpt-4o', messages });
 */
export function withContextManagement(client: OpenAI, options: OpenAIContextManagementOptions = {}): OpenAI {
  const resolved = resolveWrapperOptions(options);
  const chat = createStatelessIntegration<ChatMessage, unknown>({
    name: 'openai',
    options: resolved.integration,
    map: fromChatMessage,
    overflowOf: openAIOverflowOf,
    createDefaultHost: (config) => resolved.createHost(config),
  });
  // One host for both endpoints; each has its own views (their originals are its endpoint's objects).
  const { sessionId: _said, ...quiet } = resolved.integration;
  const responses = createStatelessIntegration<ResponsesPromptItem, unknown>({
    name: 'openai-responses',
    options: quiet,
    map: fromResponsesItem,
    overflowOf: openAIOverflowOf,
    createDefaultHost: () => chat.host(),
  });

  async function createChat(params: ChatParams, requestOptions?: RequestOptions): Promise<unknown> {
    const send = (sent: ChatParams) => client.chat.completions.create(sent, requestOptions);
    if (!Array.isArray(params.messages)) return send(params);
    resolved.sawModel(params.model);
    // A copy: the caller's loop appends to its own array after the call, and the chain keeps what it was given.
    const turn = await chat.prepare(
      [...params.messages],
      chat.request({
        model: params.model,
        ...outputBudget(params.max_completion_tokens ?? params.max_tokens),
        tools: chatTools(params),
        ...signalOf(requestOptions),
      }),
    );
    const fields = nativeFieldsOf(turn.providerOptions);
    if (fields !== undefined) {
      const carried = nativeContextManagement(fields, 'chat');
      if ('off' in carried)
        chat.report(
          `native:${fields.vendor}`,
          `native compaction not sent (${carried.off}); the client engine keeps the context`,
        );
    }
    const paramsFor = (messages: readonly Message[] | undefined): ChatParams =>
      built(chat, params, messages, (projection) => ({
        ...params,
        messages: toChatMessages(projection, turn.originals),
      }));
    return runTurn(turn, (messages) => send(paramsFor(messages)));
  }

  async function createResponse(params: ResponseParams, requestOptions?: RequestOptions): Promise<unknown> {
    const send = (sent: ResponseParams) => client.responses.create(sent, requestOptions);
    // The server holds the rest of the conversation: ctxhost sees only part of the prompt, so it steps aside.
    if (isServerSideState(params)) return send(params);
    resolved.sawModel(params.model ?? 'unknown');
    const turn = await responses.prepare(
      responsesPrompt(params),
      responses.request({
        ...(params.model === undefined ? {} : { model: params.model }),
        ...outputBudget(params.max_output_tokens),
        tools: responsesTools(params),
        ...signalOf(requestOptions),
      }),
    );
    const base = withNative(params, turn);
    const paramsFor = (messages: readonly Message[] | undefined): ResponseParams =>
      built(responses, base, messages, (projection) => {
        const { instructions, input } = toResponsesPrompt(projection, turn.originals);
        const { instructions: _instructions, ...rest } = base;
        return { ...rest, input, ...(instructions === undefined ? {} : { instructions }) };
      });
    return runTurn(turn, async (messages) => {
      try {
        return await send(paramsFor(messages));
      } catch (error) {
        const sent = messages ?? turn.messages;
        const readable =
          isInvalidEncryptedContent(error) && sent !== undefined ? readableInPlaceOfOpaque(sent) : undefined;
        if (readable === undefined) throw error;
        responses.report(
          'readable-copy',
          `OpenAI refused a compaction item (${error instanceof Error ? error.message : String(error)}); sent again with its readable copy in its place`,
        );
        return send(paramsFor(readable));
      }
    });
  }

  /** `turn.run`, telling the deprecated `onCompaction` which compactions an overflow's recovery made. */
  function runTurn<T>(
    turn: { run(send: (messages: readonly Message[] | undefined) => Promise<T>): Promise<T> },
    send: (messages: readonly Message[] | undefined) => Promise<T>,
  ): Promise<T> {
    let overflowed = false;
    return turn
      .run(async (messages) => {
        try {
          return await send(messages);
        } catch (error) {
          if (!overflowed && openAIOverflowOf(error) !== undefined) {
            overflowed = true;
            resolved.recovering(1);
          }
          throw error;
        }
      })
      .finally(() => {
        if (overflowed) resolved.recovering(-1);
      });
  }

  /** The call with OpenAI's inline compaction as its `context_management`, unless the caller set one (else said once). */
  function withNative(params: ResponseParams, turn: StatelessTurn<ResponsesPromptItem, unknown>): ResponseParams {
    const fields = nativeFieldsOf(turn.providerOptions);
    if (fields === undefined || params.context_management != null) return params;
    const carried = nativeContextManagement(fields, 'responses');
    if ('off' in carried) {
      responses.report(
        `native:${fields.vendor}`,
        `native compaction not sent (${carried.off}); the client engine keeps the context`,
      );
      return params;
    }
    return { ...params, context_management: carried.contextManagement };
  }

  const completions = wrap(client.chat.completions, 'create', createChat);
  const chatApi = wrap(client.chat, 'completions', completions);
  const responsesApi = wrap(client.responses, 'create', createResponse);
  return new Proxy(client, {
    get: (target, property, receiver) =>
      property === 'chat'
        ? chatApi
        : property === 'responses'
          ? responsesApi
          : (Reflect.get(target, property, receiver) as unknown),
  });
}

/** `target` with `property` replaced by `value`; everything else as it was. */
function wrap<T extends object>(target: T, property: string, value: unknown): T {
  return new Proxy(target, {
    get: (inner, key, receiver) => (key === property ? value : (Reflect.get(inner, key, receiver) as unknown)),
  });
}

/**
 * The caller's params with the projection in them, or as they came: when ctxhost stepped aside, or when
 * mapping the projection back failed (said once: ctxhost's trouble is never the caller's error).
 */
function built<P>(
  integration: { report: ReportOnce },
  params: P,
  messages: readonly Message[] | undefined,
  build: (projection: readonly Message[]) => P,
): P {
  if (messages === undefined) return params;
  try {
    return build(messages);
  } catch (error) {
    integration.report('map-back', 'the projection could not be written back in the OpenAI SDK’s shape', error);
    return params;
  }
}

function isServerSideState(params: ResponseParams): boolean {
  return (
    (params.previous_response_id !== undefined && params.previous_response_id !== null) ||
    (params.conversation !== undefined && params.conversation !== null)
  );
}

function outputBudget(tokens: number | null | undefined): { maxOutputTokens?: number } {
  return tokens === null || tokens === undefined ? {} : { maxOutputTokens: tokens };
}

function signalOf(requestOptions: RequestOptions | undefined): { signal?: AbortSignal } {
  const signal = requestOptions?.signal;
  return signal === null || signal === undefined ? {} : { signal };
}

function toolDefinition(name: string, description: string | null | undefined, parameters: unknown): ToolDefinition {
  const schema = typeof parameters === 'object' && parameters !== null ? (parameters as Record<string, never>) : {};
  return { name, description: description ?? '', inputSchema: { ...schema, type: 'object' } };
}

function chatTools(params: ChatParams): ToolDefinition[] {
  return (params.tools ?? []).flatMap((tool) =>
    tool.type === 'function'
      ? [toolDefinition(tool.function.name, tool.function.description, tool.function.parameters)]
      : [],
  );
}

function responsesTools(params: ResponseParams): ToolDefinition[] {
  return (params.tools ?? []).flatMap((tool) =>
    tool.type === 'function' ? [toolDefinition(tool.name, tool.description, tool.parameters)] : [],
  );
}
