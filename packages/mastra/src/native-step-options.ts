import { nativeProviderOptions, type NativeCarriage } from '@ctxhost/ai-sdk';
import { nativeFieldsOf, type Host } from '@ctxhost/core';
import { nativeRequestFieldsOf } from '@ctxhost/native-compaction';

/**
 * Why OpenAI's inline compaction is not sent through Mastra (`@mastra/core` 1.71): `@ai-sdk/openai` returns
 * the Responses `compaction` item as a `custom` content part (kind `openai.compaction`), which Mastra streams
 * but leaves out of its messages, so the item would never go back and the server would compact the whole
 * prompt again on every request past its threshold.
 */
const NO_INLINE =
  'Mastra keeps no `custom` part in its messages, so the Responses compaction item (openai.compaction) would never go back and the server would compact again on every request past its threshold';

type StepProviderOptions = Parameters<typeof nativeProviderOptions>[2];

/**
 * A step's provider options with native compaction in the step's provider's own spelling
 * (`@ai-sdk/anthropic`'s `contextManagement`, `@ai-sdk/openai` Responses' `contextManagement`, as the AI
 * SDK middleware sends them), or why its provider cannot carry them. Mastra takes provider options only
 * from `processInputStep`, before the prompt exists; the fields depend on the model and the config alone,
 * so they are the ones the host's request hook decides for the prompt later (`nativeRequestFieldsOf`).
 * OpenAI's inline compaction is not sent (`NO_INLINE`).
 * Undefined when the host asks for nothing native for this model (the request hook says why).
 */
export function nativeStepOptions(
  host: Host,
  model: { modelId: string; provider: string },
  providerOptions: StepProviderOptions,
): NativeCarriage | undefined {
  const native = nativeRequestFieldsOf(host, model.modelId);
  const fields = native === undefined || 'off' in native ? undefined : nativeFieldsOf(native.providerOptions);
  if (fields?.vendor === 'openai') return { off: `${model.provider}: ${NO_INLINE}` };
  return fields === undefined ? undefined : nativeProviderOptions(fields, model.provider, providerOptions);
}

/**
 * Whether a step's options ask `@ai-sdk/anthropic` for threshold compaction (`compact_20260112`), whose
 * beta (`compact-2026-01-12`, added by the provider) lets the request send Anthropic's compaction blocks
 * back as blocks, signed or not.
 */
export function carriesThresholdCompaction(providerOptions: StepProviderOptions): boolean {
  const contextManagement = providerOptions?.['anthropic']?.['contextManagement'];
  if (typeof contextManagement !== 'object' || contextManagement === null || Array.isArray(contextManagement))
    return false;
  const edits = (contextManagement as { edits?: unknown }).edits;
  return Array.isArray(edits) && edits.some((edit) => (edit as { type?: unknown } | null)?.type === 'compact_20260112');
}
