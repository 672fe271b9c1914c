import { createHash } from 'node:crypto';
import {
  createStatelessIntegration,
  isInvalidEncryptedContent,
  nativeFieldsOf,
  readableInPlaceOfOpaque,
  type IntegrationOptions,
  type Message,
  type StatelessTurn,
} from '@ctxhost/core';
import {
  OpenAIResponsesModel,
  type AgentInputItem,
  type CallModelInputFilter,
  type Model,
  type ModelRequest,
  type StreamEvent,
} from '@openai/agents';
import { createDefaultHost } from 'ctxhost';
import { OPENAI_AGENTS_ERROR_CODES, OpenaiAgentsIntegrationError } from './errors.js';
import { fromAgentItem, type InstructionsItem, type MirrorItem } from './from-agent-items.js';
import { nativeModelSettings } from './native-model-settings.js';
import { createPreparedTurns } from './prepared-turns.js';
import { toAgentItems } from './to-agent-items.js';

export const OPENAI_AGENTS = 'openai-agents';

/** The options every integration takes (`IntegrationOptions`); `model` defaults to the agent's `model` when it is a string. */
export type ContextManagementOptions = IntegrationOptions;

export interface ContextManagement {
  /** For `run(agent, input, { callModelInputFilter })` or a `Runner`'s config: the projection after the request hooks, as the model's input. */
  callModelInputFilter: CallModelInputFilter;
  /** The model, recovering from overflows: the caller's run never sees the error. */
  wrapModel(model: Model): Model;
}

type Turn = StatelessTurn<MirrorItem, unknown>;

/**
 * ctxhost in the OpenAI Agents SDK, on core's stateless path: the input filter hands the run's
 * instructions and items to ctxhost and gives the model what the host's request waterfall makes of
 * them (engine, hygiene); the wrapped model recovers an overflow through the host's cascade. No
 * session, no lock: a conversation is its items.
 *
 *   const ctx = createContextManagement({ contextWindow: 128_000 });
 *   const agent = new Agent({ name, instructions, model: ctx.wrapModel(new OpenAIChatCompletionsModel(client, 'gpt-4o')) });
 *   await run(agent, input, { callModelInputFilter: ctx.callModelInputFilter });
 */
export function createContextManagement(options: ContextManagementOptions = {}): ContextManagement {
  checkOptions(options);
  const integration = createStatelessIntegration<MirrorItem, unknown>({
    name: 'openai-agents',
    options,
    map: fromAgentItem,
    createDefaultHost: (config) => createDefaultHost({ config }),
  });
  /** Turns prepared by the filter, waiting for the model call that sends them (matched by what is sent); bounded. */
  const prepared = createPreparedTurns<Turn>();
  /** Turns whose projection holds no OpenAI compaction item (the renderer's count): no readable copy to look for. */
  const withoutOpenAIItems = new WeakSet<Turn>();

  /**
   * The instructions as one item, the same object while they stay the same: a new object each call would
   * be a changed first message to the prompt chain, which then copies its storage of the whole prompt.
   */
  let instructionsItem: InstructionsItem | undefined;
  const instructionsOf = (content: string): InstructionsItem =>
    instructionsItem?.content === content
      ? instructionsItem
      : (instructionsItem = { role: 'system', content, instructionsOnly: true });

  const filter = async ({ modelData, agent }: Parameters<CallModelInputFilter>[0]) => {
    // The instructions as a head apart from the run's input: the input is not copied to put them in front.
    const head: MirrorItem[] = modelData.instructions === undefined ? [] : [instructionsOf(modelData.instructions)];
    const model = options.model ?? (typeof agent.model === 'string' && agent.model !== '' ? agent.model : undefined);
    const turn = await integration.prepare(
      { head, list: modelData.input },
      integration.request(model === undefined ? {} : { model }),
    );
    if (turn.messages === undefined) return modelData;
    const storage = turn.sourceStorage;
    // The run's own input goes back as it came when the projection is exactly it (no copy).
    const caller = storage === undefined ? undefined : { list: modelData.input, storage, offset: head.length };
    const projected = toAgentItems(turn.messages, turn.originals, caller);
    if (!projected.holdsOpenAICompaction) withoutOpenAIItems.add(turn);
    const key = signature(projected.instructions, projected.input);
    prepared.add(key, turn);
    return {
      input: projected.input,
      ...(projected.instructions === undefined ? {} : { instructions: projected.instructions }),
    };
  };

  /**
   * Identity-preserving: ctxhost never changes an item or anything in it (it maps them into its own messages
   * and hands back the run's own objects), so the runner may pass its items instead of deep copies of every
   * one of them on each call (the SDK's `structuredClone` of the whole input), and the prompt chain then finds
   * the run's known items by identity rather than comparing rebuilt copies field by field.
   */
  const callModelInputFilter: CallModelInputFilter = Object.assign(filter, { preserveInputIdentity: true });

  function wrapModel(inner: Model): Model {
    const turnOf = (request: ModelRequest): Turn | undefined => {
      if (!Array.isArray(request.input)) return undefined;
      return prepared.take(signature(request.systemInstructions, request.input));
    };
    /** The request with native compaction in the model's own settings, where the model takes it (else said once). */
    const withNative = (request: ModelRequest, turn: Turn): ModelRequest => {
      const fields = nativeFieldsOf(turn.providerOptions);
      if (fields === undefined) return request;
      const carried = nativeModelSettings(fields, inner, request.modelSettings);
      if ('off' in carried) {
        integration.report(
          `native:${fields.vendor}`,
          `native compaction not sent (${carried.off}); the client engine keeps the context`,
        );
        return request;
      }
      return { ...request, modelSettings: carried.modelSettings };
    };
    /**
     * OpenAI's compaction items go only to `OpenAIResponsesModel`: to any other model (Chat Completions,
     * another provider through `@openai/agents-extensions`' AI SDK adapter, which refuses the item) their
     * readable copies go in their place.
     */
    const responses = inner instanceof OpenAIResponsesModel;
    const forModel = (request: ModelRequest, turn: Turn): ModelRequest => {
      const readable =
        responses || turn.messages === undefined || withoutOpenAIItems.has(turn)
          ? undefined
          : readableInPlaceOfOpaque(turn.messages);
      return readable === undefined ? request : retried(request, turn, readable);
    };
    const retried = (request: ModelRequest, turn: Turn, messages: readonly Message[] | undefined): ModelRequest => {
      if (messages === undefined) return request;
      const sendable = responses ? messages : (readableInPlaceOfOpaque(messages) ?? messages);
      const projected = toAgentItems(sendable, turn.originals);
      return {
        ...request,
        input: projected.input,
        ...(projected.instructions === undefined ? {} : { systemInstructions: projected.instructions }),
      };
    };
    /**
     * The model's reply; when OpenAI refuses a compaction item it cannot decrypt (another key or model
     * made it: 400 `invalid_encrypted_content`), once more with the items' readable copies in their
     * place (core's `readableInPlaceOfOpaque`, as `createOpenAIResponsesModel` does), said once.
     */
    const send = async <T>(
      call: (request: ModelRequest) => Promise<T>,
      request: ModelRequest,
      turn: Turn,
      messages: readonly Message[] | undefined,
    ): Promise<T> => {
      try {
        return await call(request);
      } catch (error) {
        const sent = messages ?? turn.messages;
        const readable =
          isInvalidEncryptedContent(error) && sent !== undefined ? readableInPlaceOfOpaque(sent) : undefined;
        if (readable === undefined) throw error;
        integration.report(
          'readable-copy',
          `OpenAI refused a compaction item (${error instanceof Error ? error.message : String(error)}); sent again with its readable copy in its place`,
        );
        return call(retried(request, turn, readable));
      }
    };
    return {
      ...(inner.supportsPromptModelSelection === undefined
        ? {}
        : { supportsPromptModelSelection: inner.supportsPromptModelSelection }),
      ...(inner.getRetryAdvice === undefined ? {} : { getRetryAdvice: (args) => inner.getRetryAdvice!(args) }),
      async getResponse(asked) {
        const found = turnOf(asked);
        if (found === undefined) return inner.getResponse(asked);
        const turn = found;
        const request = forModel(withNative(asked, turn), turn);
        let first = true;
        return turn.run((messages) => {
          const retry = !first;
          first = false;
          return send(
            (sent) => inner.getResponse(sent),
            retry ? retried(request, turn, messages) : request,
            turn,
            messages,
          );
        });
      },
      async *getStreamedResponse(asked) {
        const turn = turnOf(asked);
        if (turn === undefined) {
          yield* inner.getStreamedResponse(asked);
          return;
        }
        const request = forModel(withNative(asked, turn), turn);
        let first = true;
        // An overflow is rejected before the first event: the stream is started (and recovered) before anything is yielded.
        const stream = await turn.run(async (messages) => {
          const retry = !first;
          first = false;
          return send(
            async (sent) => {
              const events = inner.getStreamedResponse(sent)[Symbol.asyncIterator]();
              return { events, first: await events.next() };
            },
            retry ? retried(request, turn, messages) : request,
            turn,
            messages,
          );
        });
        for (
          let step: IteratorResult<StreamEvent> = stream.first;
          step.done !== true;
          step = await stream.events.next()
        )
          yield step.value;
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
