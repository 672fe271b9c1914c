/**
 * Token usage of one model request, as the provider reported it.
 * Anthropic's `input_tokens` excludes cached tokens, so the prompt's size is
 * input + cache creation + cache read (see `promptTokens`).
 */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
  /** Cache writes split by TTL, when the provider reports it. */
  cacheCreation?: { ephemeral5mInputTokens: number; ephemeral1hInputTokens: number };
}

/** The size of the prompt a usage record describes. */
export function promptTokens(usage: Usage): number {
  return usage.inputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens;
}

export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 };
}
