import type { Usage } from '@ctxhost/core';
import { numberOf, objectOf } from './tool-definitions.js';

/**
 * OpenAI's usage (Chat Completions `prompt_tokens`, Responses `input_tokens`;
 * cached tokens inside the prompt count) in ctxhost's terms, where input
 * excludes what the cache read.
 */
export function openAIUsage(usage: Record<string, unknown>): Usage {
  const prompt = numberOf(usage['prompt_tokens'] ?? usage['input_tokens']);
  const details = objectOf(usage['prompt_tokens_details']) ?? objectOf(usage['input_tokens_details']);
  const cached = numberOf(details?.['cached_tokens']);
  return {
    inputTokens: Math.max(0, prompt - cached),
    outputTokens: numberOf(usage['completion_tokens'] ?? usage['output_tokens']),
    cacheCreationInputTokens: 0,
    cacheReadInputTokens: cached,
  };
}

/** An error as OpenAI answers it: `{ error: { message, type, param, code } }`. */
export function openAIErrorBody(status: number, message: string): string {
  const type = status >= 500 ? 'server_error' : status === 429 ? 'rate_limit_exceeded' : 'invalid_request_error';
  return JSON.stringify({ error: { message, type, param: null, code: null } });
}
