import { openAICompactionPart, partId, type JsonValue, type MappedPromptItem, type Part } from '@ctxhost/core';
import type { AgentInputItem } from '@openai/agents';

/** The instructions travel beside the items; the mirror sees them as this head item. */
export interface InstructionsItem {
  role: 'system';
  content: string;
  instructionsOnly: true;
}

export type MirrorItem = AgentInputItem | InstructionsItem;
export type MappedItem = MappedPromptItem<unknown>;

/**
 * One Agents SDK input item as a ctxhost message: user, system and assistant
 * messages (text), function calls (an assistant message with a tool call),
 * function call results (a tool message), reasoning. Anything else (images,
 * files, hosted and computer tool calls, …) is named, so the caller sends the
 * input untouched rather than lose it.
 */
export function fromAgentItem(item: MirrorItem, id: string): MappedItem {
  const record = item as Record<string, unknown>;
  const type = typeof record['type'] === 'string' ? record['type'] : 'message';
  if (type === 'function_call') {
    const call = item as Extract<AgentInputItem, { type: 'function_call' }>;
    return one(
      id,
      'assistant',
      {
        id: partId(id, 0),
        type: 'tool-call',
        callId: call.callId,
        name: call.name,
        input: parseArguments(call.arguments),
      },
      item,
    );
  }
  if (type === 'function_call_result') {
    const result = item as Extract<AgentInputItem, { type: 'function_call_result' }>;
    const output = outputText(result.output);
    if (output === undefined) return { ok: false, unmappedType: 'function_call_result (non-text output)' };
    return one(
      id,
      'tool',
      { id: partId(id, 0), type: 'tool-result', callId: result.callId, name: result.name, output },
      item,
    );
  }
  if (type === 'reasoning') {
    const content = (record['content'] as { type: string; text?: string }[] | undefined) ?? [];
    return {
      ok: true,
      message: {
        id,
        role: 'assistant',
        parts: content.map((entry, index) => ({
          id: partId(id, index),
          type: 'reasoning' as const,
          text: entry.text ?? '',
        })),
      },
      sourceParts: content,
    };
  }
  if (type === 'compaction') {
    // OpenAI's encrypted compaction item: carried exactly, sent back to OpenAI as it came.
    const compaction = item as Extract<AgentInputItem, { type: 'compaction' }>;
    const part = openAICompactionPart(
      {
        type: 'compaction',
        encrypted_content: compaction.encrypted_content,
        ...(compaction.id === undefined ? {} : { id: compaction.id }),
        ...(compaction.created_by === undefined ? {} : { created_by: compaction.created_by }),
      },
      partId(id, 0),
    );
    return one(id, 'assistant', part, item);
  }
  if (type !== 'message') return { ok: false, unmappedType: type };
  const role = record['role'];
  const content = record['content'];
  if (role !== 'system' && role !== 'user' && role !== 'assistant')
    return { ok: false, unmappedType: `message (${String(role)})` };
  if (typeof content === 'string') return one(id, role, { id: partId(id, 0), type: 'text', text: content }, content);
  if (!Array.isArray(content)) return { ok: false, unmappedType: `${role} message content` };
  const parts: Part[] = [];
  for (const [index, entry] of (content as { type: string; text?: string; refusal?: string }[]).entries()) {
    if (entry.type === 'input_text' || entry.type === 'output_text')
      parts.push({ id: partId(id, index), type: 'text', text: entry.text ?? '' });
    else if (entry.type === 'refusal') parts.push({ id: partId(id, index), type: 'text', text: entry.refusal ?? '' });
    else return { ok: false, unmappedType: entry.type };
  }
  return { ok: true, message: { id, role, parts }, sourceParts: content };
}

function one(id: string, role: 'system' | 'user' | 'assistant' | 'tool', part: Part, source: unknown): MappedItem {
  return { ok: true, message: { id, role, parts: [part] }, sourceParts: [source] };
}

function parseArguments(text: string): JsonValue {
  try {
    return JSON.parse(text === '' ? '{}' : text) as JsonValue;
  } catch {
    return text;
  }
}

function outputText(output: unknown): string | undefined {
  if (typeof output === 'string') return output;
  if (typeof output === 'object' && output !== null && (output as { type?: unknown }).type === 'text')
    return String((output as { text?: unknown }).text ?? '');
  if (
    Array.isArray(output) &&
    output.every(
      (entry) => (entry as { type?: unknown }).type === 'input_text' || (entry as { type?: unknown }).type === 'text',
    )
  )
    return output.map((entry) => String((entry as { text?: unknown }).text ?? '')).join('');
  return undefined;
}
