import type { ContentBlock, MessagesRequest } from '../wire/wire.js';

/** OpenAI caches prompts automatically from this length, in steps of 128 tokens. */
export const CHAT_CACHE_MINIMUM_TOKENS = 1024;
const CHAT_CACHE_STEP = 128;

/**
 * Automatic caching (OpenAI's Chat Completions and Responses, Gemini's implicit cache): the prefix
 * through every message is a cache entry, no markers needed.
 */
export function everyPrefixCached(request: MessagesRequest): MessagesRequest {
  const marker = { type: 'ephemeral' as const };
  const messages = request.messages.map((message) => {
    const blocks: ContentBlock[] =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    if (blocks.length === 0) return message;
    return { ...message, content: [...blocks.slice(0, -1), { ...blocks.at(-1)!, cache_control: marker }] };
  });
  return { ...request, messages };
}

/** What OpenAI reports as cached: the matched prefix, in steps of 128 tokens, from 1,024 on. */
export function cachedPrefix(read: number): number {
  return read < CHAT_CACHE_MINIMUM_TOKENS ? 0 : Math.floor(read / CHAT_CACHE_STEP) * CHAT_CACHE_STEP;
}
