/** The request and response shapes the simulator reads and writes (the Messages API's JSON); the request's live in core, shared with the gateway. */
import type { ContentBlock } from '@ctxhost/core';

export type {
  WireCacheControl as CacheControl,
  ContentBlock,
  WireMessage,
  ToolSpec,
  MessagesRequest,
} from '@ctxhost/core';

export interface WireUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
  /** Server compaction: one entry per sampling pass (`compaction`, then `message`). */
  iterations?: Record<string, unknown>[];
}

/** Usage figures a scripted turn may force (the rest are computed). */
export type UsageOverride = Partial<
  Pick<WireUsage, 'input_tokens' | 'output_tokens' | 'cache_creation_input_tokens' | 'cache_read_input_tokens'>
>;

export interface AssistantTurn {
  content: ContentBlock[];
  stop_reason: string;
  usage?: UsageOverride;
}

/** One entry of `context_management.edits`: a strategy and its options. */
export interface ContextEdit {
  type: string;
  [option: string]: unknown;
}
