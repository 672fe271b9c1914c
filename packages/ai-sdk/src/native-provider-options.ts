import { aiSdkContextManagement, type JsonValue, type NativeFields } from '@ctxhost/core';
import type { AiProviderOptions } from './ai-sdk-types.js';

/** Where a turn's native context management goes in an AI SDK call, or why it cannot go anywhere. */
export type NativeCarriage = { providerOptions: AiProviderOptions } | { off: string };

/**
 * Native compaction's fields as the AI SDK provider's own options. `@ai-sdk/anthropic` (a model whose
 * `provider` starts with `anthropic`) takes `providerOptions.anthropic.contextManagement` in camelCase
 * and adds the betas itself. `@ai-sdk/openai`'s Responses model (`provider` `openai.responses`) takes
 * OpenAI's inline compaction as `providerOptions.openai.contextManagement` (`[{ type: 'compaction',
 * compactThreshold }]`, sent as the Responses field `context_management`); its Chat Completions model
 * and `@ai-sdk/openai-compatible` have no such field. The call's own `contextManagement` (or Anthropic's
 * on-demand `compaction`) wins.
 */
export function nativeProviderOptions(
  fields: NativeFields,
  provider: string | undefined,
  callOptions: AiProviderOptions | undefined,
): NativeCarriage {
  if (fields.vendor === 'openai') return openAIProviderOptions(fields.contextManagement, provider, callOptions);
  if (provider?.startsWith('anthropic') !== true)
    return { off: `${provider}: Anthropic's context management goes only through @ai-sdk/anthropic` };
  const own = callOptions?.['anthropic'] ?? {};
  if (own['contextManagement'] !== undefined || own['compaction'] !== undefined)
    return { providerOptions: callOptions ?? {} };
  const contextManagement = aiSdkContextManagement(fields.contextManagement.edits);
  return { providerOptions: { ...callOptions, anthropic: { ...own, contextManagement } } };
}

/** The Responses API's `context_management` entries as `@ai-sdk/openai`'s Responses provider option. */
function openAIProviderOptions(
  entries: readonly Readonly<Record<string, JsonValue>>[],
  provider: string | undefined,
  callOptions: AiProviderOptions | undefined,
): NativeCarriage {
  if (provider !== 'openai.responses')
    return {
      off: `${provider}: OpenAI's inline compaction goes only through @ai-sdk/openai's Responses model (provider openai.responses)`,
    };
  const own = callOptions?.['openai'] ?? {};
  if (own['contextManagement'] !== undefined) return { providerOptions: callOptions ?? {} };
  const contextManagement = entries.flatMap((entry) =>
    typeof entry['compact_threshold'] === 'number'
      ? [{ type: 'compaction', compactThreshold: entry['compact_threshold'] }]
      : [],
  );
  return { providerOptions: { ...callOptions, openai: { ...own, contextManagement } } };
}

/** On-demand compaction's beta: a request that sends a compaction block needs it (the model client adds it likewise). */
const ON_DEMAND_COMPACTION_BETA = 'compact-2026-09-04';

/**
 * The call's options with on-demand compaction's beta when the prompt sends Anthropic's compaction block
 * (`sendsBlock`, counted while rendering) and the provider is `@ai-sdk/anthropic` (which adds the beta
 * itself only for a block with a signature).
 */
export function withCompactionBeta(
  providerOptions: AiProviderOptions | undefined,
  sendsBlock: boolean,
  provider: string | undefined,
): AiProviderOptions | undefined {
  // A hand-made model may leave `provider` out (the AI SDK's type requires it; plain JavaScript does not).
  if (!sendsBlock || typeof provider !== 'string' || !provider.startsWith('anthropic')) return providerOptions;
  const own = providerOptions?.['anthropic'] ?? {};
  const betas = Array.isArray(own['anthropicBeta'])
    ? own['anthropicBeta'].filter((beta) => typeof beta === 'string')
    : [];
  if (betas.includes(ON_DEMAND_COMPACTION_BETA)) return providerOptions;
  return { ...providerOptions, anthropic: { ...own, anthropicBeta: [...betas, ON_DEMAND_COMPACTION_BETA] } };
}
