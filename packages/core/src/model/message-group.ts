import type { Message } from './message.js';

/**
 * The atomic unit of compaction. No strategy ever splits a group.
 * - `system`: a system message
 * - `user`: a user message without tool results
 * - `assistant_text`: an assistant message without tool calls
 * - `tool_call`: an assistant message with tool calls plus every message whose results answer them
 * - `summary`: a summary message (`meta.summary`)
 */
export type MessageGroupKind = 'system' | 'user' | 'assistant_text' | 'tool_call' | 'summary';

export interface MessageGroup {
  kind: MessageGroupKind;
  /** Position of the group in the grouped list. */
  index: number;
  /** Indices into the original message list, ascending (not always contiguous: results can sit apart from their call). */
  messageIndices: number[];
  messages: Message[];
  messageCount: number;
  chars: number;
  tokens: number;
  /** Tool call ids in this group (tool_call groups). */
  callIds: string[];
  /** True when a call has no result or a result has no call. Reported, never merged elsewhere. */
  orphan: boolean;
}
