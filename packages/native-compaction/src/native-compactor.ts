import type { Message, TextPart, Usage } from '@ctxhost/core';

/** What one provider compaction returned: the part that stands for the span, and what the pass cost. */
export interface NativeCompactResult {
  /** Anthropic's `compaction` block or OpenAI's encrypted item, as a part (core's `nativeCompactionOf`). */
  part: TextPart;
  usage: Usage;
  model: string;
}

export interface NativeCompactOptions {
  /** The system prompt the span was sent with (Anthropic takes it as `system`, OpenAI as `instructions`). */
  system?: string;
  /** What the summary should keep above all (sent inside ctxhost's complete prompt where the API takes one). */
  focus?: string;
  signal?: AbortSignal;
}

/**
 * A provider's compaction endpoint, asked for one span ctxhost chose:
 * Anthropic's on-demand compaction (`@ctxhost/anthropic`'s
 * `createAnthropicCompactor`) or OpenAI's `responses/compact`
 * (`@ctxhost/openai`'s `createOpenAICompactor`). `compact` throws a
 * `NativeCompactionError` when the provider refuses or fails; the engine then
 * falls back to the client engine.
 */
export interface NativeCompactor {
  readonly vendor: 'anthropic' | 'openai';
  readonly model: string;
  compact(span: readonly Message[], options: NativeCompactOptions): Promise<NativeCompactResult>;
}
