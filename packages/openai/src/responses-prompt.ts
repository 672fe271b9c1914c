import type OpenAI from 'openai';
import {
  openAICompactionPart,
  partId,
  toResponsesInput,
  type JsonValue,
  type MappedPromptItem,
  type Message,
  type Part,
  type PromptOriginals,
  type ToolResultContent,
} from '@ctxhost/core';

type InputItem = OpenAI.Responses.ResponseInputItem;

/** `instructions` travel beside `input`; ctxhost sees them as this head item. */
export interface InstructionsItem {
  role: 'system';
  content: string;
  instructionsOnly: true;
}

export type ResponsesPromptItem = InputItem | InstructionsItem;

/** A `responses.create` call's `instructions` and `input` as one list of prompt items. */
export function responsesPrompt(params: {
  instructions?: string | null;
  input?: string | OpenAI.Responses.ResponseInput;
}): ResponsesPromptItem[] {
  const head: ResponsesPromptItem[] =
    typeof params.instructions === 'string' && params.instructions !== ''
      ? [{ role: 'system', content: params.instructions, instructionsOnly: true }]
      : [];
  const input = params.input ?? [];
  return [...head, ...(typeof input === 'string' ? [{ role: 'user' as const, content: input }] : input)];
}

/**
 * One Responses input item as a ctxhost message: messages of any role (text content), `function_call`
 * (an assistant tool call, its arguments' exact text kept), `function_call_output` (a tool result),
 * `reasoning` (summary text, `id` and `encrypted_content` kept) and OpenAI's encrypted `compaction`
 * item (carried exactly, sent back as it came). Any other item (images, files, hosted tools, item
 * references) is named, so the caller's input goes out untouched rather than lose it.
 */
export function fromResponsesItem(item: ResponsesPromptItem, id: string): MappedPromptItem<unknown> {
  const record = item as unknown as Record<string, unknown>;
  const type = typeof record['type'] === 'string' ? record['type'] : 'message';
  switch (type) {
    case 'message':
      return fromMessage(record, id);
    case 'function_call': {
      const call = item as OpenAI.Responses.ResponseFunctionToolCall;
      return one(
        id,
        'assistant',
        {
          id: partId(id, 0),
          type: 'tool-call',
          callId: call.call_id,
          name: call.name,
          input: parseArguments(call.arguments),
          extra: { arguments: call.arguments },
        },
        item,
      );
    }
    case 'function_call_output': {
      const result = item as OpenAI.Responses.ResponseInputItem.FunctionCallOutput;
      const output = outputOf(result.output);
      if (output === undefined) return { ok: false, unmappedType: 'function_call_output (non-text output)' };
      return one(id, 'tool', { id: partId(id, 0), type: 'tool-result', callId: String(result.call_id), output }, item);
    }
    case 'reasoning': {
      const reasoning = item as OpenAI.Responses.ResponseReasoningItem;
      const extra: Record<string, JsonValue> = {};
      if (typeof reasoning.id === 'string') extra['id'] = reasoning.id;
      if (typeof reasoning.encrypted_content === 'string') extra['encrypted_content'] = reasoning.encrypted_content;
      const text = reasoning.summary.map((entry) => entry.text).join('\n');
      return one(id, 'assistant', { id: partId(id, 0), type: 'reasoning', text, extra }, item);
    }
    case 'compaction': {
      const compaction = item as OpenAI.Responses.ResponseCompactionItemParam & { created_by?: string };
      const part = openAICompactionPart(
        {
          type: 'compaction',
          encrypted_content: compaction.encrypted_content,
          ...(compaction.id === undefined || compaction.id === null ? {} : { id: compaction.id }),
          ...(typeof compaction.created_by === 'string' ? { created_by: compaction.created_by } : {}),
        },
        partId(id, 0),
      );
      return one(id, 'assistant', part, item);
    }
    default:
      return { ok: false, unmappedType: type };
  }
}

function fromMessage(record: Record<string, unknown>, id: string): MappedPromptItem<unknown> {
  const role = record['role'] === 'developer' ? 'system' : record['role'];
  if (role !== 'system' && role !== 'user' && role !== 'assistant')
    return { ok: false, unmappedType: `message (${String(record['role'])})` };
  const content = record['content'];
  if (typeof content === 'string') return one(id, role, { id: partId(id, 0), type: 'text', text: content }, content);
  if (!Array.isArray(content)) return { ok: false, unmappedType: `${role} message content` };
  const parts: Part[] = [];
  for (const [index, entry] of (content as { type: string; text?: string; refusal?: string }[]).entries()) {
    if (entry.type === 'input_text' || entry.type === 'output_text')
      parts.push({ id: partId(id, index), type: 'text', text: entry.text ?? '' });
    else if (entry.type === 'refusal') parts.push({ id: partId(id, index), type: 'text', text: entry.refusal ?? '' });
    else return { ok: false, unmappedType: `message content ${entry.type}` };
  }
  return { ok: true, message: { id, role, parts }, sourceParts: content };
}

function one(id: string, role: Message['role'], part: Part, source: unknown): MappedPromptItem<unknown> {
  return { ok: true, message: { id, role, parts: [part] }, sourceParts: [source] };
}

function parseArguments(text: string): JsonValue {
  try {
    return JSON.parse(text === '' ? '{}' : text) as JsonValue;
  } catch {
    return text;
  }
}

function outputOf(output: unknown): string | ToolResultContent[] | undefined {
  if (typeof output === 'string') return output;
  if (!Array.isArray(output)) return undefined;
  const texts: ToolResultContent[] = [];
  for (const entry of output as { type?: unknown; text?: unknown }[]) {
    if (entry.type !== 'input_text') return undefined;
    texts.push({ type: 'text', text: String(entry.text ?? '') });
  }
  return texts;
}

/**
 * What the request waterfall made of the prompt, as `instructions` and `input`: an item no hook changed
 * goes as the caller's own object; the rest as core's `toResponsesInput` writes them (a compaction item
 * exactly as it came, another provider's compaction as its readable copy).
 */
export function toResponsesPrompt(
  messages: readonly Message[],
  originals: PromptOriginals<ResponsesPromptItem, unknown>,
): { instructions: string | undefined; input: InputItem[] } {
  let instructions: string | undefined;
  const input: InputItem[] = [];
  for (const message of messages) {
    const source = originals.message(message.id);
    const unchanged =
      source !== undefined && message.parts.every((part) => originals.unchangedPart(part) !== undefined);
    if (source !== undefined && 'instructionsOnly' in source) {
      instructions = unchanged ? source.content : textOf(message);
      continue;
    }
    if (unchanged) input.push(source);
    else input.push(...(toResponsesInput([message]) as unknown as InputItem[]));
  }
  return { instructions, input };
}

function textOf(message: Message): string {
  return message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}
