import {
  openAICompactionPart,
  type JsonValue,
  type MediaSource,
  type Part,
  type ToolResultContent,
} from '@ctxhost/core';
import { BlockProblem, describe } from './claude-code-blocks.js';
import { isRecord } from './parse-context.js';

/** Where one Codex response item goes in the ctxhost model. */
export type CodexItem =
  | { kind: 'system'; parts: Part[] }
  | { kind: 'user'; parts: Part[] }
  | { kind: 'assistant'; parts: Part[] }
  | { kind: 'tool'; parts: Part[] }
  /** Not part of the model's context as ctxhost models it (ghost snapshots, hosted tool calls). */
  | { kind: 'skipped'; type: string };

const CALL_OUTPUTS = new Set(['function_call_output', 'custom_tool_call_output', 'local_shell_call_output']);

/**
 * One `response_item` payload of a Codex rollout as ctxhost parts: a message
 * (developer and system → system; user; assistant), `reasoning`, a tool call
 * (`function_call`, `custom_tool_call`, `local_shell_call`) or its output, or
 * OpenAI's encrypted `compaction` item (kept exactly, to be sent back as it came).
 * Hosted tool calls (`web_search_call`, …) and items that are never sent are skipped.
 */
export function codexItem(payload: Record<string, unknown>, id: string): CodexItem {
  const type = payload.type;
  if (typeof type !== 'string') throw new BlockProblem(`response_item has no "type" (got ${describe(type)})`);
  if (type === 'message') return messageItem(payload, id);
  if (type === 'reasoning') return { kind: 'assistant', parts: [reasoningPart(payload, id)] };
  if (type === 'function_call') return { kind: 'assistant', parts: [functionCall(payload, id)] };
  if (type === 'custom_tool_call')
    return {
      kind: 'assistant',
      parts: [toolCall(payload, id, stringField(payload, 'input'), { customTool: true })],
    };
  if (type === 'local_shell_call')
    return {
      kind: 'assistant',
      parts: [toolCall({ ...payload, name: 'local_shell' }, id, (payload.action ?? {}) as JsonValue)],
    };
  if (CALL_OUTPUTS.has(type)) return { kind: 'tool', parts: [toolResult(payload, id)] };
  if (type === 'compaction') return { kind: 'assistant', parts: [compactionPart(payload, id)] };
  // ghost_snapshot (never sent), hosted calls (web_search_call, …), newer item types.
  return { kind: 'skipped', type };
}

function messageItem(payload: Record<string, unknown>, id: string): CodexItem {
  const role = payload.role;
  const content = payload.content;
  if (!Array.isArray(content)) throw new BlockProblem(`message content is ${describe(content)}, expected a list`);
  const parts = content.flatMap((item, index): Part[] => {
    const partId = `${id}.${index}`;
    const converted = contentPart(item);
    if (converted.type === 'text')
      return converted.text === '' ? [] : [{ id: partId, type: 'text', text: converted.text }];
    return [{ id: partId, type: 'image', source: (converted as { source: MediaSource }).source }];
  });
  if (role === 'user') return { kind: 'user', parts };
  if (role === 'assistant') return { kind: 'assistant', parts };
  if (role === 'developer' || role === 'system') return { kind: 'system', parts };
  throw new BlockProblem(`message role ${describe(role)} is not user, assistant, developer or system`);
}

/** `input_text` / `output_text` / `refusal` as text; `input_image` as an image (a data: URL as base64). */
function contentPart(item: unknown): ToolResultContent {
  if (!isRecord(item)) throw new BlockProblem(`content item is ${describe(item)}, expected an object`);
  if (item.type === 'input_text' || item.type === 'output_text' || item.type === 'text')
    return { type: 'text', text: stringField(item, 'text') };
  if (item.type === 'refusal') return { type: 'text', text: stringField(item, 'refusal') };
  if (item.type === 'input_image') return { type: 'image', source: imageSource(stringField(item, 'image_url')) };
  throw new BlockProblem(`unknown content item ${describe(item.type)}`);
}

function imageSource(url: string): MediaSource {
  const data = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return data === null ? { kind: 'url', url } : { kind: 'base64', mediaType: data[1]!, data: data[2]! };
}

/** The summary texts (else the raw reasoning texts); the opaque `encrypted_content` is kept in `extra`. */
function reasoningPart(payload: Record<string, unknown>, id: string): Part {
  const texts = (list: unknown): string[] =>
    Array.isArray(list)
      ? list.flatMap((entry) => (isRecord(entry) && typeof entry.text === 'string' ? [entry.text] : []))
      : [];
  const summary = texts(payload.summary);
  const text = (summary.length > 0 ? summary : texts(payload.content)).join('\n\n');
  const encrypted = payload.encrypted_content;
  return {
    id: `${id}.0`,
    type: 'reasoning',
    text,
    ...(typeof encrypted === 'string' && encrypted !== '' ? { extra: { encryptedContent: encrypted } } : {}),
  };
}

function functionCall(payload: Record<string, unknown>, id: string): Part {
  const text = stringField(payload, 'arguments');
  let input: JsonValue;
  try {
    input = JSON.parse(text) as JsonValue;
  } catch {
    throw new BlockProblem(`function_call ${String(payload.call_id)}: "arguments" is not JSON (${text.slice(0, 40)})`);
  }
  return toolCall(payload, id, input);
}

function toolCall(
  payload: Record<string, unknown>,
  id: string,
  input: JsonValue,
  extra?: Record<string, JsonValue>,
): Part {
  const callId = payload.call_id ?? payload.id;
  if (typeof callId !== 'string' || callId === '') throw new BlockProblem(`${String(payload.type)} has no "call_id"`);
  return {
    id: `${id}.0`,
    type: 'tool-call',
    callId,
    name: stringField(payload, 'name'),
    input: typeof input === 'string' ? { input } : input,
    ...(extra === undefined ? {} : { extra }),
  };
}

/** An output: a string, or a list of content items (text, images); `{ content, success }` in older rollouts. */
function toolResult(payload: Record<string, unknown>, id: string): Part {
  const callId = payload.call_id;
  if (typeof callId !== 'string' || callId === '') throw new BlockProblem(`${String(payload.type)} has no "call_id"`);
  const raw = payload.output;
  const legacy = isRecord(raw) ? raw : undefined;
  const body = legacy === undefined ? raw : legacy.content;
  let output: string | ToolResultContent[];
  if (typeof body === 'string') output = body;
  else if (Array.isArray(body)) output = body.map(contentPart);
  else throw new BlockProblem(`${String(payload.type)} ${callId}: "output" is ${describe(body)}`);
  return {
    id: `${id}.0`,
    type: 'tool-result',
    callId,
    output,
    ...(legacy?.success === false ? { isError: true } : {}),
  };
}

function stringField(record: Record<string, unknown>, key: string): string {
  const value = record[key];
  if (typeof value !== 'string')
    throw new BlockProblem(`${String(record.type)}: "${key}" must be a string, got ${describe(value)}`);
  return value;
}

/** OpenAI's server-side compaction item: opaque, kept verbatim (`id`, `encrypted_content`); no readable copy in a rollout. */
function compactionPart(payload: Record<string, unknown>, id: string): Part {
  const encrypted = payload.encrypted_content;
  if (typeof encrypted !== 'string' || encrypted === '')
    throw new BlockProblem(`compaction item has no "encrypted_content" string (got ${describe(encrypted)})`);
  return openAICompactionPart(
    {
      type: 'compaction',
      encrypted_content: encrypted,
      ...(typeof payload.id === 'string' ? { id: payload.id } : {}),
      ...(typeof payload.created_by === 'string' ? { created_by: payload.created_by } : {}),
    },
    id,
  );
}
