import { REQUEST_STAGE, type Host, type ModelRequest, type Plugin } from '@ctxhost/core';
import {
  anthropicTriggerTokens,
  buildAnthropicContextManagement,
  type AnthropicContextManagement,
} from './anthropic-context-management.js';
import {
  NATIVE_COMPACTION,
  NATIVE_COMPACTION_DEFAULTS,
  type NativeCompactionConfig,
  type NativeCompactionConfigInput,
} from './config-schema.js';
import { addInlineReadableCopy } from './inline-readable-copy.js';
import { readNativeCompactionConfig } from './read-native-compaction-config.js';
import { createNativeTotals, type NativeTotals } from './native-totals.js';
import { buildResponsesContextManagement } from './responses-context-management.js';
import { serverFirstThreshold } from './server-first-engine.js';
import { nativeTarget } from './native-support.js';
import { registerNativeRequestFields, type NativeRequestFields } from './native-request-fields.js';

/** After the caching breakpoints: it only adds provider options, which no earlier stage reads. */
export const NATIVE_COMPACTION_STAGE = REQUEST_STAGE.caching + 10;

export interface NativeCompactionPluginOptions {
  /** Replaces `hooks.native-compaction` (written in the file's spelling). */
  config?: NativeCompactionConfigInput;
  /** The provider requests go to; unset: Anthropic for Claude models, OpenAI for OpenAI models. */
  provider?: string;
}

export interface NativeCompactionPlugin extends Plugin {
  /** The session's totals, once a response reported native context management or ctxhost fell back. */
  totals(sessionId: string): NativeTotals | undefined;
}

/**
 * `native-compaction`: hands context management to the provider. On the
 * request waterfall (`beforeRequest`, AsyncSeriesWaterfallHook, at
 * NATIVE_COMPACTION_STAGE) it adds, for a Claude model on Anthropic's API, the
 * configured edits as `providerOptions.context_management` and their betas to
 * `providerOptions.betas`; for an OpenAI model on OpenAI's API, inline
 * compaction as `providerOptions.context_management` (the Responses field). A
 * request that already carries `context_management` keeps its own. Anywhere
 * else (a gateway, another provider) the request goes out unchanged and the
 * reason is logged once per model: the client engine keeps the context there.
 * On `message.updated` (AsyncSeriesHook) it sums what the provider reported.
 * It does not change the client engine: wrap it with `withServerFirst` so it
 * compresses only as the fallback; without that, the plugin warns once when the
 * client's threshold comes before the server's trigger.
 */
export function createNativeCompactionPlugin(options: NativeCompactionPluginOptions = {}): NativeCompactionPlugin {
  const totals = createNativeTotals();
  return {
    name: NATIVE_COMPACTION,
    totals: (sessionId) => totals.get(sessionId),
    apply(host) {
      const config = readNativeCompactionConfig(host, options.config);
      const anthropic = buildAnthropicContextManagement(config.anthropic);
      const responses = buildResponsesContextManagement(config.openai);
      if (anthropic === undefined && responses === undefined) return;
      const fieldsFor = (model: string): NativeRequestFields => {
        const target = nativeTarget(model, options.provider);
        if (target.vendor === undefined) return { vendor: undefined, off: target.reason };
        if (target.vendor === 'anthropic')
          return anthropic === undefined
            ? { vendor: 'anthropic', off: 'nothing configured for anthropic' }
            : {
                vendor: 'anthropic',
                providerOptions: { betas: anthropic.betas, context_management: anthropic.contextManagement },
              };
        return responses === undefined
          ? { vendor: 'openai', off: 'nothing configured for openai' }
          : { vendor: 'openai', providerOptions: { context_management: responses } };
      };
      registerNativeRequestFields(host, fieldsFor);
      const announced = new Set<string>();
      host.hooks.beforeRequest.tapPromise(
        { name: NATIVE_COMPACTION, stage: NATIVE_COMPACTION_STAGE },
        async (request, context) => {
          const native = fieldsFor(request.model);
          const off = 'off' in native ? native.off : undefined;
          if (!announced.has(request.model)) {
            announced.add(request.model);
            announce(host, config, { model: request.model, vendor: native.vendor, off }, context.contextWindow);
          }
          if (off !== undefined) {
            if (native.vendor === undefined) totals.fallback(request.sessionId, off);
            return request;
          }
          if (native.vendor === 'anthropic' && anthropic !== undefined)
            return withAnthropicContextManagement(request, anthropic);
          return responses === undefined ? request : withResponsesContextManagement(request, responses);
        },
      );
      host.hooks.messageUpdated.tapPromise(NATIVE_COMPACTION, async ({ sessionId, message }) => {
        if (message.role !== 'assistant') return;
        totals.record(sessionId, message);
        if (config.readable_copy.enabled)
          await addInlineReadableCopy(host, sessionId, message).catch((error: unknown) =>
            host.logger.warn(`native compaction: no readable copy of an inline compaction item (${String(error)})`),
          );
      });
      host.hooks.sessionDeleted.tapPromise(NATIVE_COMPACTION, async ({ sessionId }) => {
        totals.delete(sessionId);
      });
    },
  };
}

/** The request with Anthropic's fields merged into its provider options (the caller's own `context_management` wins). */
export function withAnthropicContextManagement(
  request: ModelRequest,
  fields: AnthropicContextManagement,
): ModelRequest {
  const providerOptions = request.providerOptions ?? {};
  const existing = Array.isArray(providerOptions['betas'])
    ? providerOptions['betas'].filter((beta): beta is string => typeof beta === 'string')
    : [];
  const betas = [...new Set([...existing, ...fields.betas])];
  const contextManagement = providerOptions['context_management'] ?? fields.contextManagement;
  return { ...request, providerOptions: { ...providerOptions, betas, context_management: contextManagement } };
}

/** The request with the Responses API's `context_management` (the caller's own wins). */
export function withResponsesContextManagement(
  request: ModelRequest,
  contextManagement: NonNullable<ReturnType<typeof buildResponsesContextManagement>>,
): ModelRequest {
  const providerOptions = request.providerOptions ?? {};
  if (providerOptions['context_management'] !== undefined) return request;
  return { ...request, providerOptions: { ...providerOptions, context_management: contextManagement } };
}

function announce(
  host: Host,
  config: NativeCompactionConfig,
  { model, vendor, off }: { model: string; vendor: 'anthropic' | 'openai' | undefined; off: string | undefined },
  contextWindow: number | undefined,
): void {
  if (off !== undefined) {
    host.logger.info(`native compaction off (${off}); the client engine keeps the context`);
    return;
  }
  const anthropic = vendor === 'anthropic' ? config.anthropic : NATIVE_COMPACTION_DEFAULTS.anthropic;
  const openai = vendor === 'openai' ? config.openai : NATIVE_COMPACTION_DEFAULTS.openai;
  const strategies = [
    anthropic.clear_thinking.enabled ? `clear_thinking keeping ${anthropic.clear_thinking.keep_turns} turn(s)` : '',
    anthropic.clear_tool_uses.enabled
      ? `clear_tool_uses over ${anthropic.clear_tool_uses.trigger_tokens} tokens keeping ${anthropic.clear_tool_uses.keep_tool_uses}`
      : '',
    anthropic.compaction.enabled ? `compaction over ${anthropic.compaction.trigger_tokens} tokens` : '',
    openai.inline.enabled ? `inline compaction over ${openai.inline.compact_threshold} tokens` : '',
  ].filter((text) => text !== '');
  const fallback = serverFirstThreshold(host.engine);
  const clientAt =
    contextWindow === undefined
      ? undefined
      : Math.floor((fallback ?? host.config.compression.threshold) * contextWindow);
  const client =
    clientAt === undefined
      ? 'client compaction threshold unknown (no context window)'
      : `client compaction from ${clientAt} tokens${fallback === undefined ? '' : ' (fallback)'}`;
  host.logger.info(`native compaction on (${model}: ${strategies.join('; ')}); ${client}`);
  const trigger = Math.min(
    anthropicTriggerTokens(anthropic) ?? Infinity,
    openai.inline.enabled ? openai.inline.compact_threshold : Infinity,
  );
  if (clientAt !== undefined && trigger !== Infinity && host.config.compression.enabled && clientAt <= trigger) {
    host.logger.warn(
      `native compaction: client compaction at ${clientAt} tokens comes before the server's trigger at ${trigger}, so the server will not get to act; wrap the engine with withServerFirst or lower the trigger`,
    );
  }
}
