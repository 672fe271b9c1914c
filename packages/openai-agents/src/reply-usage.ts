import type { Usage } from '@ctxhost/core';

/** The Agents SDK's usage (OpenAI's: input tokens include the cached ones) in ctxhost's terms. */
export function toUsage(usage: {
  inputTokens: number;
  outputTokens: number;
  inputTokensDetails?: Record<string, number> | Record<string, number>[] | undefined;
}): Usage {
  const details = Array.isArray(usage.inputTokensDetails)
    ? usage.inputTokensDetails
    : usage.inputTokensDetails === undefined
      ? []
      : [usage.inputTokensDetails];
  const cached = details.reduce((sum, entry) => sum + (entry['cached_tokens'] ?? entry['cachedTokens'] ?? 0), 0);
  return {
    inputTokens: Math.max(0, usage.inputTokens - cached),
    outputTokens: usage.outputTokens,
    cacheReadInputTokens: cached,
    cacheCreationInputTokens: 0,
  };
}
