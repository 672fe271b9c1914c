/*
 * The few Anthropic-format request fields the breakpoint strategy reads, typed
 * loosely on purpose: any Messages API request (or an OpenAI-format message
 * list, as Hermes passes it, with `role: 'system'` and `role: 'tool'`
 * messages) fits. Unknown fields are carried through untouched. Defined here so
 * the package needs no `@anthropic-ai/sdk` at run time.
 */

/** `cache_control` as sent on the wire. */
export interface WireCacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

/** A content block (`text`, `image`, `tool_use`, `tool_result`, `thinking`, …). */
export interface WireContentBlock {
  type: string;
  cache_control?: WireCacheControl;
  [field: string]: unknown;
}

/** A message; `system` and `tool` roles appear in OpenAI-format lists. */
export interface WireMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content?: string | WireContentBlock[] | null;
  cache_control?: WireCacheControl;
  [field: string]: unknown;
}

export interface WireTool {
  name: string;
  cache_control?: WireCacheControl;
  [field: string]: unknown;
}

/** The request: Anthropic params (`system`, `messages`, `tools`) or just an OpenAI-style message list. */
export interface CacheableRequest {
  system?: string | WireContentBlock[];
  messages: WireMessage[];
  tools?: WireTool[];
  [field: string]: unknown;
}
