import type { ContentBlock, MessagesRequest, ToolSpec, WireMessage } from './wire.js';

/**
 * The simulator's own tokenizer: deterministic, documented, and deliberately
 * NOT ctxhost's estimator, so tests notice when the estimator drifts.
 *
 * - a run of letters costs ceil(length / 5) tokens
 * - a run of digits costs ceil(length / 3)
 * - every other non-space character costs 1 (punctuation, symbols, CJK…)
 * - every newline costs 1; other whitespace is free
 * - each message costs 4 more, each content block 3 more, each tool 10 more
 * - an image or a PDF document costs a flat 1,500
 * - a tool_result costs its content; tool_use and other blocks cost their JSON
 */
export const TOKENIZER = { letters: 5, digits: 3, message: 4, block: 3, tool: 10, image: 1500 } as const;

const PIECE = /[A-Za-z]+|\d+|\n|[^\sA-Za-z\d]/g;

export function countTextTokens(text: string): number {
  let tokens = 0;
  for (const match of text.matchAll(PIECE)) {
    const piece = match[0];
    if (/^[A-Za-z]/.test(piece)) tokens += Math.ceil(piece.length / TOKENIZER.letters);
    else if (/^\d/.test(piece)) tokens += Math.ceil(piece.length / TOKENIZER.digits);
    else tokens += 1;
  }
  return tokens;
}

export function countBlockTokens(block: ContentBlock): number {
  if (block.type === 'image') return TOKENIZER.image;
  if (block.type === 'document') {
    const source = block['source'] as { type?: string; data?: string } | undefined;
    return source?.type === 'text' ? TOKENIZER.block + countTextTokens(source.data ?? '') : TOKENIZER.image;
  }
  if (block.type === 'tool_result') {
    const content = block['content'] as string | ContentBlock[] | undefined;
    const inner =
      typeof content === 'string'
        ? countTextTokens(content)
        : (content ?? []).reduce((sum, item) => sum + countBlockTokens(item), 0);
    return TOKENIZER.block + countTextTokens(String(block['tool_use_id'] ?? '')) + inner;
  }
  if (block.type === 'thinking') return TOKENIZER.block + countTextTokens(String(block['thinking'] ?? ''));
  const { type: _type, cache_control: _cache, ...rest } = block;
  return (
    TOKENIZER.block +
    countTextTokens(
      typeof block.text === 'string' && Object.keys(rest).length === 1 ? block.text : JSON.stringify(rest),
    )
  );
}

export function countToolTokens(tool: ToolSpec): number {
  const { cache_control: _cache, ...rest } = tool;
  return TOKENIZER.tool + countTextTokens(JSON.stringify(rest));
}

export function messageBlocks(message: WireMessage): ContentBlock[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

export function systemBlocks(system: MessagesRequest['system']): ContentBlock[] {
  if (system === undefined) return [];
  return typeof system === 'string' ? [{ type: 'text', text: system }] : system;
}

/** Tokens of the whole prompt: tools, system and messages. */
export function countTokens(request: Pick<MessagesRequest, 'messages' | 'system' | 'tools'>): number {
  let tokens = (request.tools ?? []).reduce((sum, tool) => sum + countToolTokens(tool), 0);
  tokens += systemBlocks(request.system).reduce((sum, block) => sum + countBlockTokens(block), 0);
  for (const message of request.messages)
    tokens += TOKENIZER.message + messageBlocks(message).reduce((sum, block) => sum + countBlockTokens(block), 0);
  return tokens;
}
