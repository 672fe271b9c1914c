import {
  ANTHROPIC_COMPACTION,
  NATIVE_PART_MARKER,
  openAICompactionPart,
  partId,
  toJsonValue,
  type MappedPromptItem,
  type MediaSource,
  type OpenAICompactionItem,
  type Part,
} from '@ctxhost/core';
import type { BaseMessage } from '@langchain/core/messages';

/** A LangChain message as a ctxhost message, with the caller's block (or tool call) behind each part, index for index. */
export type MappedMessage = MappedPromptItem<unknown>;

type Block = { type?: unknown; [key: string]: unknown };
type ToolCallLike = { id?: string | undefined; name: string; args: Record<string, unknown> };

/** Blocks that repeat an AI message's `tool_calls` (Anthropic's `tool_use`, a stream's partial JSON): the calls are read from `tool_calls`. */
const TOOL_CALL_ECHOES = new Set(['tool_use', 'input_json_delta']);

/**
 * One LangChain message (`@langchain/core` v1) as a ctxhost message: system,
 * human and AI messages with text, images and thinking; an AI message's
 * `tool_calls` as tool calls; a tool message as a tool result. Anything else
 * (a document or search-result block, a server tool call, a standard
 * `reasoning` block, a message type such as `ChatMessage`) is named, so the
 * middleware sends the request untouched rather than lose it.
 */
export function fromLangChainMessage(message: BaseMessage, id: string): MappedMessage {
  switch (message.type) {
    case 'system':
      return fromContent(message, id, 'system');
    case 'human':
      return fromContent(message, id, 'user');
    case 'ai':
      return fromAiMessage(message, id);
    case 'tool':
      return fromToolMessage(message, id);
    default:
      return { ok: false, unmappedType: `message (${message.type})` };
  }
}

function fromContent(message: BaseMessage, id: string, role: 'system' | 'user'): MappedMessage {
  const blocks = blocksOf(message.content);
  const parts: Part[] = [];
  for (const block of blocks) {
    const part = fromBlock(block, partId(id, parts.length), role);
    if (part === undefined) return { ok: false, unmappedType: describe(block) };
    parts.push(part);
  }
  return { ok: true, message: { id, role, parts }, sourceParts: blocks };
}

function fromAiMessage(message: BaseMessage, id: string): MappedMessage {
  const parts: Part[] = [];
  const sources: unknown[] = [];
  for (const item of compactionItemsOf(message)) {
    parts.push(openAICompactionPart(item, partId(id, parts.length)));
    sources.push(item);
  }
  for (const block of blocksOf(message.content)) {
    if (TOOL_CALL_ECHOES.has(String(block.type))) continue;
    const part = fromBlock(block, partId(id, parts.length), 'assistant');
    if (part === undefined) return { ok: false, unmappedType: describe(block) };
    parts.push(part);
    sources.push(block);
  }
  for (const call of toolCallsOf(message)) {
    if (call.id === undefined || call.id === '') return { ok: false, unmappedType: 'tool call without an id' };
    parts.push({
      id: partId(id, parts.length),
      type: 'tool-call',
      callId: call.id,
      name: call.name,
      input: toJsonValue(call.args),
    });
    sources.push(call);
  }
  return { ok: true, message: { id, role: 'assistant', parts }, sourceParts: sources };
}

/**
 * OpenAI's encrypted compaction items in a `ChatOpenAI` Responses reply (inline compaction): the reply
 * keeps every output item in `response_metadata.output`, which it sends back as those items. ctxhost's
 * native part for each, so another provider gets its readable copy.
 */
function compactionItemsOf(message: BaseMessage): OpenAICompactionItem[] {
  const output = (message.response_metadata as { output?: unknown } | undefined)?.output;
  if (!Array.isArray(output)) return [];
  return output.filter(
    (item): item is OpenAICompactionItem =>
      typeof item === 'object' &&
      item !== null &&
      (item as { type?: unknown }).type === 'compaction' &&
      typeof (item as { encrypted_content?: unknown }).encrypted_content === 'string',
  );
}

function fromToolMessage(message: BaseMessage, id: string): MappedMessage {
  const fields = message as BaseMessage & { tool_call_id?: string; status?: string };
  const blocks = blocksOf(message.content);
  if (!blocks.every((block) => block.type === 'text' && typeof block.text === 'string'))
    return { ok: false, unmappedType: `tool message content (${blocks.map(describe).join(', ')})` };
  const output =
    typeof message.content === 'string' ? message.content : blocks.map((block) => String(block.text)).join('');
  if (fields.tool_call_id === undefined || fields.tool_call_id === '')
    return { ok: false, unmappedType: 'tool message without a tool_call_id' };
  const part: Part = {
    id: partId(id, 0),
    type: 'tool-result',
    callId: fields.tool_call_id,
    output,
    ...(message.name === undefined ? {} : { name: message.name }),
    ...(fields.status === 'error' ? { isError: true } : {}),
  };
  return { ok: true, message: { id, role: 'tool', parts: [part] }, sourceParts: [message.content] };
}

function fromBlock(block: Block, id: string, role: 'system' | 'user' | 'assistant'): Part | undefined {
  switch (block.type) {
    case 'text':
    case 'text_delta':
      return typeof block.text === 'string' ? { id, type: 'text', text: block.text } : undefined;
    case 'thinking':
      if (role !== 'assistant' || typeof block.thinking !== 'string') return undefined;
      return {
        id,
        type: 'reasoning',
        text: block.thinking,
        ...(typeof block.signature === 'string' ? { signature: block.signature } : {}),
      };
    case 'compaction':
      // Anthropic's compaction block (ChatAnthropic hands it back as a content block): ctxhost's native part.
      if (role !== 'assistant' || (typeof block.content !== 'string' && block.content !== null)) return undefined;
      return {
        id,
        type: 'text',
        text: block.content ?? '',
        extra: { [NATIVE_PART_MARKER]: ANTHROPIC_COMPACTION },
      };
    case 'redacted_thinking':
      if (role !== 'assistant' || typeof block.data !== 'string') return undefined;
      return { id, type: 'reasoning', text: '', redacted: true, data: block.data };
    case 'image_url':
    case 'image': {
      const source = role === 'user' ? imageSource(block) : undefined;
      return source === undefined ? undefined : { id, type: 'image', source };
    }
    default:
      return undefined;
  }
}

/** An `image_url` block (a URL or a data URL) or a standard `image` block (`url`, or base64 `data` with `mimeType`). */
function imageSource(block: Block): MediaSource | undefined {
  const raw = block.type === 'image_url' ? block.image_url : block.url;
  const url = typeof raw === 'string' ? raw : (raw as { url?: unknown } | undefined)?.url;
  if (typeof url === 'string') {
    const data = /^data:([^;,]+);base64,(.*)$/s.exec(url);
    return data === null ? { kind: 'url', url } : { kind: 'base64', mediaType: data[1]!, data: data[2]! };
  }
  if (block.type === 'image' && typeof block.data === 'string' && typeof block.mimeType === 'string')
    return { kind: 'base64', mediaType: block.mimeType, data: block.data };
  return undefined;
}

export function blocksOf(content: BaseMessage['content']): Block[] {
  return typeof content === 'string' ? (content === '' ? [] : [{ type: 'text', text: content }]) : content;
}

export function toolCallsOf(message: BaseMessage): ToolCallLike[] {
  return (message as BaseMessage & { tool_calls?: ToolCallLike[] }).tool_calls ?? [];
}

function describe(block: Block): string {
  return typeof block.type === 'string' ? block.type : typeof block;
}
