import type { Usage } from '@ctxhost/core';
import type { AIMessage } from '@langchain/core/messages';

/**
 * LangChain's `usage_metadata` in ctxhost's terms. LangChain counts cache reads
 * and writes inside `input_tokens` (for Anthropic too); ctxhost, as Anthropic
 * reports it, does not.
 */
export function toUsage(usage: NonNullable<AIMessage['usage_metadata']>): Usage {
  const cacheRead = usage.input_token_details?.cache_read ?? 0;
  const cacheCreation = usage.input_token_details?.cache_creation ?? 0;
  return {
    inputTokens: Math.max(0, usage.input_tokens - cacheRead - cacheCreation),
    outputTokens: usage.output_tokens,
    cacheReadInputTokens: cacheRead,
    cacheCreationInputTokens: cacheCreation,
  };
}
