/**
 * The Anthropic Messages API's request shapes, as plain types: core converts
 * to and from them without depending on `@anthropic-ai/sdk`. Fields ctxhost
 * does not model (citations, …) ride along in an index signature.
 */
export interface AnthropicCacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

export type AnthropicMediaSource =
  | { type: 'base64'; media_type: string; data: string }
  | { type: 'url'; url: string }
  | { type: 'text'; media_type: string; data: string };

interface BlockBase {
  cache_control?: AnthropicCacheControl | null;
  [field: string]: unknown;
}

export interface AnthropicTextBlock extends BlockBase {
  type: 'text';
  text: string;
}

export interface AnthropicImageBlock extends BlockBase {
  type: 'image';
  source: AnthropicMediaSource;
}

export interface AnthropicDocumentBlock extends BlockBase {
  type: 'document';
  source: AnthropicMediaSource;
  title?: string | null;
}

export interface AnthropicThinkingBlock extends BlockBase {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export interface AnthropicRedactedThinkingBlock extends BlockBase {
  type: 'redacted_thinking';
  data: string;
}

export interface AnthropicToolUseBlock extends BlockBase {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

export type AnthropicToolResultContent = AnthropicTextBlock | AnthropicImageBlock | AnthropicDocumentBlock;

export interface AnthropicToolResultBlock extends BlockBase {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | AnthropicToolResultContent[];
  is_error?: boolean;
}

export type AnthropicContentBlock =
  | AnthropicTextBlock
  | AnthropicImageBlock
  | AnthropicDocumentBlock
  | AnthropicThinkingBlock
  | AnthropicRedactedThinkingBlock
  | AnthropicToolUseBlock
  | AnthropicToolResultBlock
  | AnthropicCompactionBlock;

/**
 * Server compaction's summary block (beta `compact-2026-01-12`). It must be sent
 * back as it came; `content: null` marks a failed compaction, a no-op for the server.
 */
export interface AnthropicCompactionBlock {
  type: 'compaction';
  content: string | null;
  encrypted_content?: string | null;
  signature?: string | null;
  cache_control?: AnthropicCacheControl | null;
  [field: string]: unknown;
}

export interface AnthropicMessageParam {
  role: 'user' | 'assistant';
  content: string | AnthropicContentBlock[];
}

export type AnthropicSystem = string | AnthropicTextBlock[];
