import type Anthropic from '@anthropic-ai/sdk';
import type { Stream } from '@anthropic-ai/sdk/streaming';
import {
  ContextWindowStop,
  createStatelessIntegration,
  type Message,
  type StatelessTurn,
  type ToolDefinition,
} from '@ctxhost/core';
import { createDefaultHost } from '@ctxhost/default-host';
import { createPromptItems, fromAnthropicItem, type AnthropicPromptItem } from './anthropic-prompt.js';
import { projectedCall } from './projected-params.js';
import { createAnthropicSummarizer } from './summarizer.js';
import { isWindowStop, peekWindowStop } from './window-stop.js';
import { createWrapperEvents } from './wrapper-events.js';
import { resolveOptions, type ContextManagementOptions } from './wrapper-options.js';

export { WRAPPER_DEFAULTS, type ContextManagementOptions, type WrapperCompactionEvent } from './wrapper-options.js';

/** The integration's name: in its warnings (`ctxhost anthropic: …`) and its taps on the host. */
export const ANTHROPIC_WRAPPER = 'anthropic';

type Params = Anthropic.MessageCreateParams;
type Reply = Anthropic.Message | Stream<Anthropic.RawMessageStreamEvent>;
/** What the SDK's `APIPromise.withResponse()` resolves with. */
type WithResponse = { data: Reply; response: Response; request_id?: string | null | undefined };

/**
 * Your existing SDK loop, on ctxhost's stateless path: the returned client's `messages.create` (complete
 * or `stream: true`) and `messages.stream` behave as before, but each request is the projection the
 * host's hooks make of the whole prompt you sent (compaction before an overflow, cache breakpoints,
 * native context management when the config turns it on), and an overflow (an error, or a
 * `model_context_window_exceeded` stop) is recovered through the host's cascade, so you get the answer.
 * No session, no lock: a conversation is its messages, and two that open alike share nothing but
 * identical compactions of identical messages. ctxhost's own trouble (a store, a hook, an engine) is
 * said once and the request goes out as you wrote it.
 *
 *   const client = withContextManagement(new Anthropic());
 *   const reply = await client.messages.create({ model, max_tokens, messages });
 */
export function withContextManagement(client: Anthropic, options: ContextManagementOptions = {}): Anthropic {
  const { shared, extras } = resolveOptions(options);
  const events = createWrapperEvents(ANTHROPIC_WRAPPER, options);
  let firstModel: string | undefined;
  const integration = createStatelessIntegration<AnthropicPromptItem, unknown>({
    name: ANTHROPIC_WRAPPER,
    options: shared,
    map: fromAnthropicItem,
    createDefaultHost: (config) => {
      const model = typeof extras.summarize === 'object' ? extras.summarize.model : (shared.model ?? firstModel);
      return createDefaultHost({
        config,
        ...(extras.counter === undefined ? {} : { counter: extras.counter }),
        ...(extras.summarize === undefined || model === undefined
          ? {}
          : { summarizer: createAnthropicSummarizer(client, { model, ...summaryInput(shared.contextWindow) }) }),
      });
    },
  });
  const promptOf = createPromptItems();

  const send = async (
    turn: StatelessTurn<AnthropicPromptItem, unknown>,
    params: Params,
    requestOptions: Anthropic.RequestOptions | undefined,
    messages: readonly Message[] | undefined,
  ): Promise<WithResponse> => {
    let call = { params, requestOptions };
    try {
      call = projectedCall(params, requestOptions, turn, messages);
    } catch (error) {
      integration.report('write', 'the projection could not be written as Messages params; sent as it came', error);
    }
    const result = (await client.messages.create(call.params, call.requestOptions).withResponse()) as WithResponse;
    if (params.stream !== true) {
      const reply = result.data as Anthropic.Message;
      if (isWindowStop(reply)) throw new ContextWindowStop(result, reply.usage.input_tokens);
      return result;
    }
    const peeked = await peekWindowStop(result.data as Stream<Anthropic.RawMessageStreamEvent>);
    const streamed = { ...result, data: peeked.stream };
    if (peeked.windowStop) throw new ContextWindowStop(streamed, undefined);
    return streamed;
  };

  const respond = (params: Params, requestOptions: Anthropic.RequestOptions | undefined): Promise<WithResponse> =>
    events.within(params.model, async () => {
      firstModel ??= params.model;
      const host = await integration.host().catch(() => undefined);
      if (host !== undefined) events.attach(host);
      const turn = await integration.prepare(
        promptOf(params),
        integration.request({
          model: params.model,
          maxOutputTokens: params.max_tokens,
          tools: toolDefinitions(params),
          ...(requestOptions?.signal == null ? {} : { signal: requestOptions.signal }),
        }),
      );
      return turn.run((messages) => send(turn, params, requestOptions, messages));
    });

  const create = (params: Params, requestOptions?: Anthropic.RequestOptions) => {
    const result = respond(params, requestOptions);
    return Object.assign(
      result.then((outcome) => outcome.data),
      { withResponse: () => result, asResponse: () => result.then((outcome) => outcome.response) },
    );
  };

  const messagesApi: Anthropic.Messages = new Proxy(client.messages, {
    get(target, property, receiver) {
      if (property === 'create') return create;
      // The SDK's stream() drives `this.create({ stream: true })`: with this proxy as `this`, through the wrapper.
      if (property === 'stream')
        return (...args: Parameters<Anthropic.Messages['stream']>) => Reflect.apply(target.stream, messagesApi, args);
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
  return new Proxy(client, {
    get: (target, property, receiver) =>
      property === 'messages' ? messagesApi : (Reflect.get(target, property, receiver) as unknown),
  });
}

/** The request's client tools, for the hooks that plan with the tools' size (server tools have no schema here). */
function toolDefinitions(params: Params): ToolDefinition[] {
  return (params.tools ?? []).flatMap((tool) =>
    'input_schema' in tool
      ? [
          {
            name: tool.name,
            description: tool.description ?? '',
            inputSchema: { ...(tool.input_schema as unknown as Record<string, never>), type: 'object' as const },
          },
        ]
      : [],
  );
}

/** The span a summary call sends must fit the window too: half of it, when the window is given. */
function summaryInput(contextWindow: number | undefined): { maxInputTokens?: number } {
  return contextWindow === undefined ? {} : { maxInputTokens: Math.floor(contextWindow / 2) };
}
