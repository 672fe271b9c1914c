import type { ProviderError, Usage } from '@ctxhost/core';
import type { AssistantMessage, Part as OpencodePart } from '@opencode-ai/sdk';

/** Share of the window an empty reply's prompt must reach to count as an overflow. */
export const SILENT_OVERFLOW_FILL = 0.99;

/** A completed reply with nothing in it: no text, no reasoning, no tool call (only step markers, or nothing). */
export function isEmptyReply(info: AssistantMessage, parts: readonly OpencodePart[]): boolean {
  if (info.error !== undefined || info.summary === true || info.time.completed === undefined) return false;
  return !parts.some((part) => ((part.type === 'text' || part.type === 'reasoning') && part.text.trim().length > 0) || part.type === 'tool');
}

/**
 * An empty reply whose prompt reached the window is an overflow the API did
 * not report as an error (a 200 with no content: `stop_reason:
 * "model_context_window_exceeded"`, or a provider that truncates the input to
 * the window and has no room to answer). It is recovered like a 400.
 */
export function silentOverflowError(usage: Usage | undefined, contextWindow: number | undefined): ProviderError | undefined {
  if (usage === undefined || contextWindow === undefined || contextWindow <= 0) return undefined;
  const prompt = usage.inputTokens + (usage.cacheCreationInputTokens ?? 0) + (usage.cacheReadInputTokens ?? 0);
  if (prompt < contextWindow * SILENT_OVERFLOW_FILL) return undefined;
  return {
    kind: 'context_overflow',
    provider: 'opencode',
    message: `the model answered nothing with a prompt of ${prompt} tokens at its window of ${contextWindow}: a silent overflow`,
    // A prompt reported over the window is its real size (the cascade scales its estimate by it); one cut to the window says nothing.
    ...(prompt > contextWindow ? { currentTokens: prompt } : {}),
    maxTokens: contextWindow,
  };
}
