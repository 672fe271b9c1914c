import type { LanguageModelV4Message, LanguageModelV4Prompt } from '@ai-sdk/provider';
import { toAiSdkPrompt } from '@ctxhost/ai-sdk';
import {
  createStatelessIntegration,
  isRecoverableOverflow,
  type IntegrationOptions,
  type StatelessTurn,
} from '@ctxhost/core';
import type {
  ProcessAPIErrorArgs,
  ProcessAPIErrorResult,
  ProcessInputStepArgs,
  ProcessInputStepResult,
  Processor,
  ProcessLLMRequestArgs,
  ProcessLLMRequestResult,
  ProcessLLMResponseArgs,
} from '@mastra/core/processors';
import { createDefaultHost } from 'ctxhost';
import { MASTRA_ERROR_CODES, MastraIntegrationError } from './errors.js';
import { withUnsignedCompactionAsText } from './compaction-as-text.js';
import { fromMastraMessage } from './from-mastra-prompt.js';
import { carriesThresholdCompaction, nativeStepOptions } from './native-step-options.js';
import { createRecoveryHandshake, RETRY_GRACE_MS } from './recovery-handshake.js';

/** The processor's id, and the name of its taps on the host. */
export const MASTRA_PROCESSOR = 'ctxhost-context-management';

/** The options every integration takes (`IntegrationOptions`). */
export type ContextManagementProcessorOptions = IntegrationOptions;

/** A Mastra processor for `inputProcessors` (it implements `processInputStep`, `processLLMRequest`, `processLLMResponse` and `processAPIError`). */
export interface ContextManagementProcessor extends Processor<typeof MASTRA_PROCESSOR> {
  processInputStep(args: ProcessInputStepArgs): Promise<ProcessInputStepResult | undefined>;
  processLLMRequest(args: ProcessLLMRequestArgs): Promise<ProcessLLMRequestResult>;
  processLLMResponse(args: ProcessLLMResponseArgs): Promise<void>;
  processAPIError(args: ProcessAPIErrorArgs): Promise<ProcessAPIErrorResult | undefined>;
}

type AiPart = Exclude<LanguageModelV4Message['content'], string>[number];
type Turn = StatelessTurn<LanguageModelV4Message, AiPart>;

const CALL = 'ctxhostCall';
/** The step asks for threshold compaction: Anthropic's blocks may go back as blocks. */
const BLOCKS_ACCEPTED = 'ctxhostCompactionBlocksAccepted';

/**
 * ctxhost in Mastra, as one processor, on core's stateless path:
 *
 *   const ctxhost = createContextManagementProcessor({ contextWindow: 200_000 });
 *   const agent = new Agent({ name, instructions, model, inputProcessors: [ctxhost], maxProcessorRetries: 3 });
 *
 * `processInputStep` puts native compaction (`hooks.native-compaction`) in the step's provider options.
 * `processLLMRequest` hands the step's whole prompt to ctxhost and sends what the host's request
 * waterfall makes of it (engine, hygiene, cache breakpoints); Mastra keeps its own messages as they
 * are, so nothing is lost. `processAPIError` runs the host's recovery cascade on an overflow, stores
 * the smaller projection, and has Mastra retry the step, whose prompt then gets it. No session, no lock.
 */
export function createContextManagementProcessor(
  options: ContextManagementProcessorOptions = {},
): ContextManagementProcessor {
  checkOptions(options);
  const integration = createStatelessIntegration<LanguageModelV4Message, AiPart>({
    name: 'mastra',
    options,
    map: fromMastraMessage,
    createDefaultHost: (config) => createDefaultHost({ config }),
  });
  // The same processor may sit in both inputProcessors and errorProcessors: one error is handled once.
  const handled = new WeakMap<object, Promise<ProcessAPIErrorResult | undefined>>();
  const warned = new Set<string>();
  const handshake = createRecoveryHandshake((key) => {
    if (warned.has('no-retry')) return;
    warned.add('no-retry');
    void integration
      .host()
      .then((host) =>
        host.logger.warn(
          `ctxhost mastra: a recovery (${key.slice(0, 12)}) asked Mastra to retry the step and no retry came within ${RETRY_GRACE_MS / 1000} s; give the agent \`maxProcessorRetries\` (3 is enough for the cascade) so it can retry`,
        ),
      );
  });

  /** An overflow starts (or continues) the host's cascade and asks Mastra to retry; anything else passes through. */
  async function handleAPIError(turn: Turn, error: unknown): Promise<ProcessAPIErrorResult | undefined> {
    if (!isRecoverableOverflow(error)) {
      handshake.settle(turn.key, false);
      await turn.finish();
      return undefined;
    }
    const resend = (signal: AbortSignal | undefined) => handshake.resend(turn.key, signal) ?? Promise.resolve(false);
    let cascade: Promise<void> | undefined;
    const retry = handshake.overflowed(turn.key, () => (cascade = turn.recover(error, resend)));
    // A retry that overflowed again: the cascade of its first attempt takes its next step.
    if (cascade === undefined) await turn.recover(error, resend);
    return { retry: await retry };
  }

  return {
    id: MASTRA_PROCESSOR,
    name: 'ctxhost context management',
    description: 'Compacts the prompt before each model call and recovers from context overflows (ctxhost)',

    // Native compaction's provider options: Mastra takes them only here, before the prompt exists.
    async processInputStep({ model, providerOptions, state }) {
      state[BLOCKS_ACCEPTED] = carriesThresholdCompaction(providerOptions);
      const { modelId, provider } = model as { modelId?: unknown; provider?: unknown };
      if (typeof modelId !== 'string' || typeof provider !== 'string') return undefined;
      try {
        const carried = nativeStepOptions(await integration.host(), { modelId, provider }, providerOptions);
        if (carried === undefined) return undefined;
        if ('off' in carried) {
          integration.report(
            `native:${provider}`,
            `native compaction not sent (${carried.off}); the client engine keeps the context`,
          );
          return undefined;
        }
        state[BLOCKS_ACCEPTED] = carriesThresholdCompaction(carried.providerOptions);
        return { providerOptions: carried.providerOptions as ProcessInputStepResult['providerOptions'] };
      } catch (error) {
        integration.report('native', 'native compaction could not be added to the step', error);
        return undefined;
      }
    },

    async processLLMRequest({ prompt: stepPrompt, model, state }) {
      // Mastra hands over the prompt of the model's specification (v4 for AI SDK 7 providers; v2 and v3 differ from it
      // only in parts ctxhost reads as unmapped, which make the step pass untouched).
      const prompt = stepPrompt as unknown as LanguageModelV4Prompt;
      const turn = await integration.prepare(prompt, integration.request({ model: model.modelId }));
      if (turn.messages === undefined) {
        delete state[CALL];
        return undefined;
      }
      state[CALL] = turn;
      handshake.retrying(turn.key);
      // A provider's compaction goes as its own part to the provider that made it, as its readable copy elsewhere.
      const rendered = toAiSdkPrompt(turn.messages, turn.originals, model.provider);
      const sendable =
        model.provider.startsWith('anthropic') && state[BLOCKS_ACCEPTED] !== true
          ? withUnsignedCompactionAsText(rendered)
          : rendered;
      return { prompt: sendable as unknown as ProcessLLMRequestArgs['prompt'] };
    },

    async processLLMResponse({ chunks, state, fromCache }) {
      const turn = state[CALL] as Turn | undefined;
      // A step that failed comes here too, its error as a chunk: processAPIError handles it.
      if (turn === undefined || fromCache || chunks.some((chunk) => chunk.type === 'error')) return;
      handshake.settle(turn.key, true);
      // Answered: a prompt over the window an overflow that named no limit taught raises it, as on the other paths.
      await turn.answered();
    },

    async processAPIError({ error, state }) {
      const turn = state[CALL] as Turn | undefined;
      if (turn === undefined) return undefined;
      if (typeof error !== 'object' || error === null) return handleAPIError(turn, error);
      const earlier = handled.get(error);
      if (earlier !== undefined) return earlier;
      const result = handleAPIError(turn, error);
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
