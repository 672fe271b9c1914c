import {
  ANTHROPIC_COMPACTION,
  NATIVE_PART_MARKER,
  openAICompactionPart,
  partId,
  toJsonValue,
  type MappedPromptItem,
  type MediaSource,
  type Part,
  type ToolResultContent,
} from '@ctxhost/core';
import type { AiMessage, AiPart } from './ai-sdk-types.js';

/** The `extra` key that marks a text part standing for an AI SDK `custom` part (its `kind` is the value). */
export const CUSTOM_PART = 'aiSdkCustom';

/** The `custom` part kind `@ai-sdk/openai`'s Responses model gives OpenAI's encrypted `compaction` item. */
export const OPENAI_COMPACTION_KIND = 'openai.compaction';

/** A prompt message in ctxhost's model (with the caller's parts, index for index), or the part type that kept it from being mapped. */
export type MappedMessage = MappedPromptItem<AiPart>;

type FilePartLike = Extract<AiPart, { type: 'file' }>;
type ToolResultLike = Extract<AiPart, { type: 'tool-result' }>;

/**
 * One AI SDK prompt message as a ctxhost `Message` with the given id (part ids
 * `<id>:<index>`). A `custom` part becomes an empty text part marked in `extra`.
 * A part ctxhost has no place for (a provider reference, a reasoning file, an approval response, a provider-executed result inside an
 * assistant turn, a type newer than this package) makes the message unmapped:
 * the caller then sends the prompt untouched rather than drop it.
 */
export function fromAiSdkMessage(source: AiMessage, id: string): MappedMessage {
  if (source.role === 'system')
    return {
      ok: true,
      message: { id, role: 'system', parts: [{ id: partId(id, 0), type: 'text', text: source.content }] },
      sourceParts: [],
    };
  const content = source.content as readonly AiPart[];
  const parts: Part[] = [];
  for (let index = 0; index < content.length; index++) {
    const part = content[index]!;
    const mapped = fromAiSdkPart(part, partId(id, index), source.role);
    if (mapped === undefined) return { ok: false, unmappedType: describe(part) };
    parts.push(mapped);
  }
  return { ok: true, message: { id, role: source.role, parts }, sourceParts: source.content };
}

function fromAiSdkPart(part: AiPart, id: string, role: AiMessage['role']): Part | undefined {
  switch (part.type) {
    case 'text':
      return anthropicCompactionOf(part, id) ?? { id, type: 'text', text: part.text };
    case 'reasoning':
      return { id, type: 'reasoning', text: part.text };
    case 'tool-call':
      return { id, type: 'tool-call', callId: part.toolCallId, name: part.toolName, input: toJsonValue(part.input) };
    case 'tool-result':
      return role === 'tool' ? fromToolResult(part, id) : undefined;
    case 'custom':
      if (part.kind === OPENAI_COMPACTION_KIND) return openAICompactionOf(part, id);
      // Provider metadata riding in the history (a stream's `anthropic.message_start`): carried, never shown to hooks as content.
      return { id, type: 'text', text: '', extra: { [CUSTOM_PART]: part.kind } };
    case 'file': {
      const source = mediaSource(part.data, part.mediaType);
      if (source === undefined) return undefined;
      return part.mediaType.startsWith('image')
        ? { id, type: 'image', source }
        : { id, type: 'file', source, ...(part.filename === undefined ? {} : { title: part.filename }) };
    }
    default:
      return undefined;
  }
}

/**
 * `@ai-sdk/anthropic` hands Anthropic's `compaction` block back as a text part marked
 * `providerOptions.anthropic.type: 'compaction'` (with its `signature`): in ctxhost's model it is the
 * same native part the Anthropic adapter makes, so the engine knows the summary for what it is.
 */
function anthropicCompactionOf(part: Extract<AiPart, { type: 'text' }>, id: string): Part | undefined {
  const anthropic = part.providerOptions?.['anthropic'];
  if (anthropic?.['type'] !== 'compaction') return undefined;
  const signature = anthropic['signature'];
  return {
    id,
    type: 'text',
    text: part.text,
    extra: { [NATIVE_PART_MARKER]: ANTHROPIC_COMPACTION, ...(typeof signature === 'string' ? { signature } : {}) },
  };
}

/**
 * `@ai-sdk/openai` hands OpenAI's encrypted `compaction` item (inline compaction) back as a `custom` part
 * of kind `openai.compaction`, its `itemId` and `encryptedContent` in `providerOptions.openai`: in
 * ctxhost's model it is the same native part the Responses adapter makes (its readable copy written
 * later by `native-compaction`), so it goes back to OpenAI exactly and elsewhere as the copy. Without its
 * encrypted content it stays provider metadata.
 */
function openAICompactionOf(part: Extract<AiPart, { type: 'custom' }>, id: string): Part {
  const openai = part.providerOptions?.['openai'];
  const encrypted = openai?.['encryptedContent'];
  const itemId = openai?.['itemId'];
  if (typeof encrypted !== 'string') return { id, type: 'text', text: '', extra: { [CUSTOM_PART]: part.kind } };
  return openAICompactionPart(
    { type: 'compaction', encrypted_content: encrypted, ...(typeof itemId === 'string' ? { id: itemId } : {}) },
    id,
  );
}

function fromToolResult(part: ToolResultLike, id: string): Part | undefined {
  const output = part.output;
  switch (output.type) {
    case 'text':
      return toolResult(part, id, output.value, false);
    case 'json':
      return toolResult(part, id, JSON.stringify(output.value), false);
    case 'error-text':
      return toolResult(part, id, output.value, true);
    case 'error-json':
      return toolResult(part, id, JSON.stringify(output.value), true);
    case 'execution-denied':
      return toolResult(
        part,
        id,
        `Tool execution denied${output.reason === undefined ? '' : `: ${output.reason}`}`,
        true,
      );
    case 'content': {
      const content: ToolResultContent[] = [];
      for (const item of output.value) {
        if (item.type === 'text') content.push({ type: 'text', text: item.text });
        else if (item.type === 'file') {
          const source = mediaSource(item.data, item.mediaType);
          if (source === undefined) return undefined;
          content.push(item.mediaType.startsWith('image') ? { type: 'image', source } : { type: 'file', source });
        } else return undefined;
      }
      return toolResult(part, id, content, false);
    }
    default:
      return undefined;
  }
}

/** A tool result part built as one literal (a prompt handed over whole maps one per tool message). */
function toolResult(part: ToolResultLike, id: string, output: string | ToolResultContent[], isError: boolean): Part {
  return isError
    ? { id, type: 'tool-result', callId: part.toolCallId, name: part.toolName, output, isError: true }
    : { id, type: 'tool-result', callId: part.toolCallId, name: part.toolName, output };
}

function mediaSource(data: FilePartLike['data'], mediaType: string): MediaSource | undefined {
  switch (data.type) {
    case 'data':
      return {
        kind: 'base64',
        mediaType,
        data: typeof data.data === 'string' ? data.data : Buffer.from(data.data).toString('base64'),
      };
    case 'url':
      return { kind: 'url', url: data.url.toString() };
    case 'text':
      return { kind: 'text', mediaType, text: data.text };
    default:
      return undefined;
  }
}

function describe(part: { type: string; data?: unknown; output?: unknown }): string {
  if (part.type === 'file' && typeof part.data === 'object' && part.data !== null && 'type' in part.data)
    return `file (${String(part.data.type)})`;
  if (part.type === 'tool-result' && typeof part.output === 'object' && part.output !== null && 'type' in part.output)
    return `tool-result (${String(part.output.type)})`;
  return part.type;
}
