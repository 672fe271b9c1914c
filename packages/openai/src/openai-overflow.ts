import type { ProviderError } from '@ctxhost/core';
import { toProviderError } from './to-provider-error.js';

const OVERFLOW_KINDS = new Set(['context_overflow', 'output_budget_overflow', 'request_too_large']);

/** An OpenAI SDK error as the overflow it states (any OpenAI-compatible server's wording), else undefined. */
export function openAIOverflowOf(error: unknown): ProviderError | undefined {
  const problem = toProviderError(error);
  return OVERFLOW_KINDS.has(problem.kind) ? problem : undefined;
}
