import {
  fromAnthropic,
  type AnthropicContentBlock,
  type JsonValue,
  type MediaSource,
  type Part,
  type ToolResultContent,
} from '@ctxhost/core';
import { isRecord } from './parse-context.js';

/** Thrown inside block conversion; the importer turns it into a located TranscriptError. */
export class BlockProblem extends Error {}

function requireString(block: Record<string, unknown>, key: string): string {
  const value = block[key];
  if (typeof value !== 'string')
    throw new BlockProblem(`${String(block.type)} block: "${key}" must be a string, got ${describe(value)}`);
  return value;
}

export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `"${value.slice(0, 40)}"` : typeof value;
}

function mediaSource(block: Record<string, unknown>): MediaSource {
  const source = block.source;
  if (!isRecord(source)) throw new BlockProblem(`${String(block.type)} block has no source object`);
  if (source.type === 'url') return { kind: 'url', url: requireString(source, 'url') };
  if (source.type === 'text')
    return { kind: 'text', mediaType: requireString(source, 'media_type'), text: requireString(source, 'data') };
  return { kind: 'base64', mediaType: requireString(source, 'media_type'), data: requireString(source, 'data') };
}

/** One Anthropic content block of a Claude Code line, as a ctxhost part with the given id. */
export function blockToPart(block: unknown, id: string): Part {
  if (!isRecord(block)) throw new BlockProblem(`content block is ${describe(block)}, expected an object`);
  switch (block.type) {
    case 'text':
      return { id, type: 'text', text: requireString(block, 'text') };
    case 'thinking':
      return {
        id,
        type: 'reasoning',
        text: requireString(block, 'thinking'),
        ...(typeof block.signature === 'string' ? { signature: block.signature } : {}),
      };
    case 'redacted_thinking':
      return { id, type: 'reasoning', text: '', redacted: true, data: requireString(block, 'data') };
    case 'tool_use':
      return {
        id,
        type: 'tool-call',
        callId: requireString(block, 'id'),
        name: requireString(block, 'name'),
        input: (block.input ?? {}) as JsonValue,
      };
    case 'tool_result':
      return toolResultPart(block, id);
    case 'image':
      return { id, type: 'image', source: mediaSource(block) };
    case 'document':
      return {
        id,
        type: 'file',
        source: mediaSource(block),
        ...(typeof block.title === 'string' ? { title: block.title } : {}),
      };
    case 'compaction':
      return compactionPart(block, id);
    default:
      throw new BlockProblem(`unknown content block type ${describe(block.type)}`);
  }
}

function toolResultPart(block: Record<string, unknown>, id: string): Part {
  const content = block.content ?? '';
  const output = typeof content === 'string' ? content : resultContent(content);
  return {
    id,
    type: 'tool-result',
    callId: requireString(block, 'tool_use_id'),
    output,
    ...(block.is_error === true ? { isError: true } : {}),
  };
}

function resultContent(content: unknown): ToolResultContent[] {
  if (!Array.isArray(content))
    throw new BlockProblem(`tool_result content is ${describe(content)}, expected a string or an array`);
  return content.map((item): ToolResultContent => {
    if (!isRecord(item)) throw new BlockProblem(`tool_result content item is ${describe(item)}`);
    if (item.type === 'text') return { type: 'text', text: requireString(item, 'text') };
    if (item.type === 'image') return { type: 'image', source: mediaSource(item) };
    if (item.type === 'document') return { type: 'file', source: mediaSource(item) };
    throw new BlockProblem(`unknown tool_result content type ${describe(item.type)}`);
  });
}

/** Anthropic's server compaction block, as core's adapter keeps it (summary as text, the rest verbatim). */
function compactionPart(block: Record<string, unknown>, id: string): Part {
  if (block.content !== null && typeof block.content !== 'string')
    throw new BlockProblem(`compaction block content is ${describe(block.content)}, expected a string or null`);
  const [message] = fromAnthropic([{ role: 'assistant', content: [block as unknown as AnthropicContentBlock] }]);
  return { ...message!.parts[0]!, id };
}
