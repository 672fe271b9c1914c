import type { Usage } from '@ctxhost/core';
import type { AiUsage } from './ai-sdk-types.js';

/** The AI SDK's usage in ctxhost's terms: `inputTokens` without cache reads and writes, as Anthropic reports it. */
export function toUsage(usage: AiUsage): Usage {
  const cacheRead = usage.inputTokens.cacheRead ?? 0;
  const cacheWrite = usage.inputTokens.cacheWrite ?? 0;
  const noCache = usage.inputTokens.noCache ?? Math.max(0, (usage.inputTokens.total ?? 0) - cacheRead - cacheWrite);
  return {
    inputTokens: noCache,
    outputTokens: usage.outputTokens.total ?? 0,
    cacheReadInputTokens: cacheRead,
    cacheCreationInputTokens: cacheWrite,
  };
}
