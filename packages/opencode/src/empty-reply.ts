import { detectSilentOverflow, type ProviderError, type Usage } from '@ctxhost/core';
import type { AssistantMessage, Part as OpencodePart } from '@opencode-ai/sdk';

export { SILENT_OVERFLOW_FILL } from '@ctxhost/core';

/** A completed reply with nothing in it: no text, no reasoning, no tool call (only step markers, or nothing). */
export function isEmptyReply(info: AssistantMessage, parts: readonly OpencodePart[]): boolean {
  if (info.error !== undefined || info.summary === true || info.time.completed === undefined) return false;
  return !parts.some(
    (part) =>
      ((part.type === 'text' || part.type === 'reasoning') && part.text.trim().length > 0) || part.type === 'tool',
  );
}

/**
 * An empty reply whose prompt reached the window is an overflow the API did
 * not report as an error (a 200 with no content: `stop_reason:
 * "model_context_window_exceeded"`, or a provider that truncates the input to
 * the window and has no room to answer). It is recovered like a 400. Core's
 * `detectSilentOverflow` decides; this keeps opencode's provider name on it.
 */
export function silentOverflowError(
  usage: Usage | undefined,
  contextWindow: number | undefined,
): ProviderError | undefined {
  const silent = detectSilentOverflow({ usage, contextWindow, empty: true });
  return silent?.kind === 'empty_at_window' ? { ...silent.error, provider: 'opencode' } : undefined;
}
