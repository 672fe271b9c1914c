import { createHash } from 'node:crypto';
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';

/** The request-context key Mastra's memory reads the thread from (`MASTRA_THREAD_ID_KEY` of `@mastra/core/request-context`). */
const MASTRA_THREAD_ID_KEY = 'mastra__threadId';

interface RequestContextLike {
  get(key: string): unknown;
}

/**
 * The session a model call belongs to: the `sessionId` option when given, else the
 * memory thread named in the request context, else one derived from the opening
 * messages (the system prompt and the first user message), which stay the same
 * across the steps and turns of one conversation.
 */
export function sessionIdOf(
  prompt: LanguageModelV4Prompt,
  requestContext: RequestContextLike | undefined,
  fallback: string | undefined,
): string {
  if (fallback !== undefined) return fallback;
  const thread = requestContext?.get(MASTRA_THREAD_ID_KEY);
  if (typeof thread === 'string' && thread.length > 0) return `mastra-thread-${thread}`;
  const system = prompt.find((message) => message.role === 'system');
  const user = prompt.find((message) => message.role === 'user');
  const opening = JSON.stringify([
    system?.content ?? null,
    user === undefined ? null : user.content.map((part) => (part.type === 'text' ? part.text : part.type)),
  ]);
  return `mastra-${createHash('sha256').update(opening).digest('hex').slice(0, 24)}`;
}
