import type {
  AnthropicCacheControl,
  AnthropicContentBlock,
  AnthropicMediaSource,
  AnthropicToolResultContent,
} from './anthropic-wire-types.js';
import { AdapterError } from '../errors.js';
import type { CacheControl, JsonValue, MediaSource, Part, ToolResultContent } from '../model/message.js';
import { NO_READABLE_COPY, OPENAI_COMPACTION } from '../model/native-compaction-part.js';

/* One Anthropic content block ⇄ one ctxhost part. Unmodelled fields travel in `extra`. */

const KNOWN_FIELDS: Record<string, readonly string[]> = {
  text: ['type', 'text', 'cache_control'],
  image: ['type', 'source', 'cache_control'],
  document: ['type', 'source', 'title', 'cache_control'],
  thinking: ['type', 'thinking', 'signature', 'cache_control'],
  redacted_thinking: ['type', 'data', 'cache_control'],
  tool_use: ['type', 'id', 'name', 'input', 'cache_control'],
  tool_result: ['type', 'tool_use_id', 'content', 'is_error', 'cache_control'],
  compaction: ['type', 'content', 'cache_control'],
};

/**
 * A block type ctxhost does not model as its own part, carried as a text part:
 * `compaction` (server compaction's summary) becomes a text part whose `extra`
 * holds this marker and the block's other fields, so the summary counts as text
 * and the adapter re-emits the exact block.
 */
export const BLOCK_TYPE_MARKER = '_ctxhost_block_type';
const CONTENT_NULL = '_ctxhost_content_null';

/** Marks a tool_result that had no `content` at all (not even an empty string). */
const CONTENT_ABSENT = '_ctxhost_content_absent';

export function blockToPart(block: AnthropicContentBlock, id: string, where: string): Part {
  const common = { id, ...cacheControlOf(block.cache_control), ...extraOf(block, where) };
  switch (block.type) {
    case 'text':
      return { ...common, type: 'text', text: block.text };
    case 'image':
      return { ...common, type: 'image', source: sourceFrom(block.source) };
    case 'document':
      return {
        ...common,
        type: 'file',
        source: sourceFrom(block.source),
        ...(typeof block.title === 'string' ? { title: block.title } : {}),
      };
    case 'thinking':
      return { ...common, type: 'reasoning', text: block.thinking, signature: block.signature };
    case 'redacted_thinking':
      return { ...common, type: 'reasoning', text: '', redacted: true, data: block.data };
    case 'tool_use':
      return { ...common, type: 'tool-call', callId: block.id, name: block.name, input: block.input as JsonValue };
    case 'tool_result': {
      const absent = block.content === undefined;
      const extra = absent ? { extra: { ...common.extra, [CONTENT_ABSENT]: true } } : {};
      return {
        ...common,
        ...extra,
        type: 'tool-result',
        callId: block.tool_use_id,
        output: resultOutputFrom(block.content, where),
        ...(block.is_error === undefined ? {} : { isError: block.is_error }),
      };
    }
    case 'compaction': {
      const content = block.content;
      if (content !== null && typeof content !== 'string')
        throw new AdapterError(`${where}.content`, 'expected the compaction summary as a string or null');
      return {
        ...common,
        type: 'text',
        text: content ?? '',
        extra: {
          ...common.extra,
          [BLOCK_TYPE_MARKER]: 'compaction',
          ...(content === null ? { [CONTENT_NULL]: true } : {}),
        },
      };
    }
    default:
      throw new AdapterError(
        where,
        `unsupported content block type ${JSON.stringify((block as { type?: unknown }).type)}; ctxhost models text, image, document, thinking, redacted_thinking, tool_use, tool_result and compaction`,
      );
  }
}

export function partToBlock(part: Part, where: string): AnthropicContentBlock {
  const extra = { ...(part.extra as Record<string, unknown> | undefined) };
  const absent = extra[CONTENT_ABSENT] === true;
  delete extra[CONTENT_ABSENT];
  const blockType = extra[BLOCK_TYPE_MARKER];
  const contentNull = extra[CONTENT_NULL] === true;
  delete extra[BLOCK_TYPE_MARKER];
  delete extra[CONTENT_NULL];
  const tail = {
    ...extra,
    ...(part.cacheControl === undefined ? {} : { cache_control: cacheControlTo(part.cacheControl) }),
  };
  if (blockType === 'compaction' && part.type === 'text')
    return { type: 'compaction', content: contentNull ? null : part.text, ...tail };
  // Another provider's compaction (OpenAI's encrypted item): Anthropic gets the readable copy as plain text.
  if (blockType === OPENAI_COMPACTION && part.type === 'text')
    return {
      type: 'text',
      text: part.text === '' ? NO_READABLE_COPY : part.text,
      ...(part.cacheControl === undefined ? {} : { cache_control: cacheControlTo(part.cacheControl) }),
    };
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text, ...tail };
    case 'image':
      return { type: 'image', source: sourceTo(part.source), ...tail };
    case 'file':
      return {
        type: 'document',
        source: sourceTo(part.source),
        ...(part.title === undefined ? {} : { title: part.title }),
        ...tail,
      };
    case 'reasoning':
      if (part.redacted === true) return { type: 'redacted_thinking', data: part.data ?? '', ...tail };
      return { type: 'thinking', thinking: part.text, signature: part.signature ?? '', ...tail };
    case 'tool-call':
      return { type: 'tool_use', id: part.callId, name: part.name, input: part.input, ...tail };
    case 'tool-result':
      return {
        type: 'tool_result',
        tool_use_id: part.callId,
        ...(absent
          ? {}
          : {
              content: typeof part.output === 'string' ? part.output : part.output.map((item) => resultContentTo(item)),
            }),
        ...(part.isError === undefined ? {} : { is_error: part.isError }),
        ...tail,
      };
    default:
      throw new AdapterError(
        where,
        `part type ${JSON.stringify((part as { type?: unknown }).type)} has no Anthropic form`,
      );
  }
}

function resultOutputFrom(
  content: string | AnthropicToolResultContent[] | undefined,
  where: string,
): string | ToolResultContent[] {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((item, index) => resultContentFrom(item, `${where}.content.${index}`));
}

function resultContentFrom(block: AnthropicToolResultContent, where: string): ToolResultContent {
  const extra = extraOf(block, where, true);
  if (block.type === 'text') return { type: 'text', text: block.text, ...extra };
  if (block.type === 'image') return { type: 'image', source: sourceFrom(block.source), ...extra };
  if (block.type === 'document')
    return {
      type: 'file',
      source: sourceFrom(block.source),
      ...(typeof block.title === 'string' ? { title: block.title } : {}),
      ...extra,
    };
  throw new AdapterError(
    where,
    `unsupported tool_result content type ${JSON.stringify((block as { type?: unknown }).type)}`,
  );
}

function resultContentTo(content: ToolResultContent): AnthropicToolResultContent {
  const extra = (content.extra ?? {}) as Record<string, unknown>;
  if (content.type === 'text') return { type: 'text', text: content.text, ...extra };
  if (content.type === 'image') return { type: 'image', source: sourceTo(content.source), ...extra };
  return {
    type: 'document',
    source: sourceTo(content.source),
    ...(content.title === undefined ? {} : { title: content.title }),
    ...extra,
  };
}

function sourceFrom(source: AnthropicMediaSource): MediaSource {
  if (source.type === 'url') return { kind: 'url', url: source.url };
  if (source.type === 'text') return { kind: 'text', mediaType: source.media_type, text: source.data };
  return { kind: 'base64', mediaType: source.media_type, data: source.data };
}

function sourceTo(source: MediaSource): AnthropicMediaSource {
  if (source.kind === 'url') return { type: 'url', url: source.url };
  if (source.kind === 'text') return { type: 'text', media_type: source.mediaType, data: source.text };
  return { type: 'base64', media_type: source.mediaType, data: source.data };
}

function cacheControlOf(value: AnthropicCacheControl | null | undefined): { cacheControl?: CacheControl } {
  if (value === undefined || value === null) return {};
  return { cacheControl: value.ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl: value.ttl } };
}

function cacheControlTo(value: CacheControl): AnthropicCacheControl {
  return value.ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl: value.ttl };
}

/** Fields the model does not name, kept as JSON. `cache_control: null` is kept too, so the round trip is exact. */
function extraOf(
  block: Record<string, unknown>,
  where: string,
  includeCacheControl = false,
): { extra?: Record<string, JsonValue> } {
  const known = KNOWN_FIELDS[String(block['type'])] ?? ['type'];
  const extra: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(block)) {
    const keep = !known.includes(key) || (key === 'cache_control' && (value === null || includeCacheControl));
    if (!keep || value === undefined) continue;
    if (!isJson(value)) throw new AdapterError(`${where}.${key}`, 'expected a JSON value');
    extra[key] = value;
  }
  return Object.keys(extra).length === 0 ? {} : { extra };
}

function isJson(value: unknown): value is JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJson);
  if (typeof value === 'object') return Object.values(value).every(isJson);
  return false;
}
