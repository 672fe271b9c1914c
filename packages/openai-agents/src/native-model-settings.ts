import type { NativeFields } from '@ctxhost/core';
import { OpenAIResponsesModel, type Model, type ModelSettings } from '@openai/agents';

/** Where a turn's native context management goes in an Agents SDK model call, or why it cannot go. */
export type NativeSettings = { modelSettings: ModelSettings } | { off: string };

/**
 * Native compaction's fields as the Agents SDK's own model setting: OpenAI's inline compaction is
 * `modelSettings.contextManagement`, which `OpenAIResponsesModel` sends as the Responses field
 * `context_management`. The Chat Completions model has no such field, and Anthropic's edits have no
 * carrier in this SDK. The call's own `contextManagement` wins.
 */
export function nativeModelSettings(fields: NativeFields, model: Model, settings: ModelSettings): NativeSettings {
  if (fields.vendor === 'anthropic')
    return { off: "Anthropic's context management has no carrier in the OpenAI Agents SDK" };
  if (!(model instanceof OpenAIResponsesModel))
    return {
      off: 'inline compaction needs OpenAIResponsesModel (the Chat Completions model has no context_management)',
    };
  if (settings.contextManagement !== undefined) return { modelSettings: settings };
  const contextManagement = fields.contextManagement.map((entry) => ({
    type: 'compaction' as const,
    ...(typeof entry['compact_threshold'] === 'number' ? { compactThreshold: entry['compact_threshold'] } : {}),
  }));
  return { modelSettings: { ...settings, contextManagement } };
}
