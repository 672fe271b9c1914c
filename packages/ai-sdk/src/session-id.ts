import { createHash } from 'node:crypto';
import type { AiCallOptions } from './ai-sdk-types.js';
import { AI_SDK_ERROR_CODES, AiSdkMiddlewareError } from './errors.js';

/**
 * The session a call belongs to: `providerOptions.ctxhost.sessionId` when the
 * caller names it, else the fallback the middleware was given, else one derived
 * from the opening messages (the system prompt and the first user message), which
 * stay the same across the steps and turns of one conversation.
 */
export function sessionIdOf(params: AiCallOptions, fallback: string | undefined): string {
  const named = params.providerOptions?.['ctxhost']?.['sessionId'];
  if (named !== undefined) {
    if (typeof named !== 'string' || named.length === 0)
      throw new AiSdkMiddlewareError(
        AI_SDK_ERROR_CODES.sessionIdInvalid,
        `providerOptions.ctxhost.sessionId: expected a non-empty string, got ${JSON.stringify(named)}`,
      );
    return named;
  }
  if (fallback !== undefined) return fallback;
  const system = params.prompt.find((message) => message.role === 'system');
  const user = params.prompt.find((message) => message.role === 'user');
  const opening = JSON.stringify([
    system?.content ?? null,
    user === undefined ? null : user.content.map((part) => (part.type === 'text' ? part.text : part.type)),
  ]);
  return `ai-sdk-${createHash('sha256').update(opening).digest('hex').slice(0, 24)}`;
}
