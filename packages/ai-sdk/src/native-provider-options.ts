import type { JsonValue, NativeFields } from '@ctxhost/core';
import type { AiProviderOptions } from './ai-sdk-types.js';

/** Where a turn's native context management goes in an AI SDK call, or why it cannot go anywhere. */
export type NativeCarriage = { providerOptions: AiProviderOptions } | { off: string };

/**
 * Native compaction's fields as the AI SDK provider's own options. `@ai-sdk/anthropic` (a model whose
 * `provider` starts with `anthropic`) takes `providerOptions.anthropic.contextManagement` in camelCase
 * and adds the betas itself. The call's own `contextManagement` or on-demand `compaction` wins (the
 * provider refuses both together). OpenAI's inline compaction has no carrier: `@ai-sdk/openai-compatible`
 * speaks Chat Completions, and `@ai-sdk/openai` (its Responses model) is not a dependency here.
 */
export function nativeProviderOptions(
  fields: NativeFields,
  provider: string,
  callOptions: AiProviderOptions | undefined,
): NativeCarriage {
  if (fields.vendor === 'openai')
    return {
      off: `${provider}: OpenAI's inline compaction needs a Responses model; the AI SDK provider here does not take context_management`,
    };
  if (!provider.startsWith('anthropic'))
    return { off: `${provider}: Anthropic's context management goes only through @ai-sdk/anthropic` };
  const own = callOptions?.['anthropic'] ?? {};
  if (own['contextManagement'] !== undefined || own['compaction'] !== undefined)
    return { providerOptions: callOptions ?? {} };
  const edits = fields.contextManagement.edits.map(camelKeys);
  return {
    providerOptions: { ...callOptions, anthropic: { ...own, contextManagement: { edits } } },
  };
}

/** An edit's top-level keys in the AI SDK's spelling (`clear_at_least` → `clearAtLeast`); values keep theirs. */
function camelKeys(edit: { [key: string]: JsonValue }): { [key: string]: JsonValue } {
  return Object.fromEntries(
    Object.entries(edit).map(([key, value]) => [
      key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()),
      value,
    ]),
  );
}
