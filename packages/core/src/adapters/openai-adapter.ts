import { AdapterError } from '../errors.js';
import type { JsonValue, Message, Part, ToolResultContent } from '../model/message.js';
import type { OpenAIMessage, OpenAITextPart, OpenAIToolCall, OpenAIUserPart } from './openai-wire-types.js';
import { NO_READABLE_COPY, nativeCompactionOf } from '../model/native-compaction-part.js';

/**
 * `meta.wire.openai` records what the model has no field for: the original
 * role (`developer`), the content's form (`string`, `parts`, `null`, `absent`)
 * and `name`. With it, OpenAI → ctxhost → OpenAI gives back an equal value.
 * Tool-call arguments that are not canonical JSON keep their exact text in
 * the part's `extra.arguments`.
 */
type ContentForm = 'string' | 'parts' | 'null' | 'absent';
interface OpenAIWire {
  role?: string;
  content?: ContentForm;
  name?: string;
}

export function fromOpenAI(messages: readonly OpenAIMessage[], options: { idPrefix?: string } = {}): Message[] {
  const prefix = options.idPrefix ?? 'msg-';
  return messages.map((message, index) => fromOne(message, `${prefix}${index}`, `messages[${index}]`));
}

function fromOne(message: OpenAIMessage, id: string, where: string): Message {
  const part = (index: number) => `${id}:${index}`;
  const wire: OpenAIWire = { content: formOf(message) };
  if ('name' in message && message.name !== undefined) wire.name = message.name;
  switch (message.role) {
    case 'system':
    case 'developer':
      if (message.role === 'developer') wire.role = 'developer';
      return withWire({ id, role: 'system', parts: textParts(message.content, part) }, wire);
    case 'user':
      return withWire({ id, role: 'user', parts: userParts(message.content, part, where) }, wire);
    case 'assistant': {
      const texts = message.content === null || message.content === undefined ? [] : textParts(message.content, part);
      const calls = (message.tool_calls ?? []).map((call, index) =>
        callPart(call, part(texts.length + index), `${where}.tool_calls[${index}]`),
      );
      return withWire({ id, role: 'assistant', parts: [...texts, ...calls] }, wire);
    }
    case 'tool': {
      const output =
        typeof message.content === 'string'
          ? message.content
          : message.content.map((item): ToolResultContent => ({ type: 'text', text: item.text }));
      return withWire(
        { id, role: 'tool', parts: [{ id: part(0), type: 'tool-result', callId: message.tool_call_id, output }] },
        wire,
      );
    }
    default:
      throw new AdapterError(
        `${where}.role`,
        `expected system, developer, user, assistant or tool, got ${JSON.stringify((message as { role?: unknown }).role)}`,
      );
  }
}

/**
 * ctxhost → OpenAI chat messages. Each tool result becomes its own `tool`
 * message; reasoning parts have no place in the chat format and are left out.
 */
export function toOpenAI(messages: readonly Message[]): OpenAIMessage[] {
  return messages.flatMap((message, index) => toOne(message, `messages[${index}]`));
}

function toOne(message: Message, where: string): OpenAIMessage[] {
  const wire = wireOf(message);
  const name = wire.name === undefined ? {} : { name: wire.name };
  switch (message.role) {
    case 'system':
      return [
        {
          role: wire.role === 'developer' ? 'developer' : 'system',
          content: textContent(message.parts, wire.content),
          ...name,
        },
      ];
    case 'assistant': {
      const texts = message.parts.filter((part) => part.type === 'text');
      const calls = message.parts.flatMap((part) => (part.type === 'tool-call' ? [callTo(part)] : []));
      const content =
        wire.content === 'absent'
          ? {}
          : {
              content:
                wire.content === 'null' || (texts.length === 0 && wire.content === undefined)
                  ? null
                  : textContent(texts, wire.content),
            };
      return [{ role: 'assistant', ...content, ...(calls.length > 0 ? { tool_calls: calls } : {}), ...name }];
    }
    case 'tool':
    case 'user': {
      const results = message.parts.filter((part) => part.type === 'tool-result');
      const rest = message.parts.filter((part) => part.type !== 'tool-result' && part.type !== 'reasoning');
      const tools = results.map((part): OpenAIMessage => ({
        role: 'tool',
        tool_call_id: part.callId,
        content: resultContent(part.output, wire.content),
      }));
      const user: OpenAIMessage[] =
        rest.length === 0 ? [] : [{ role: 'user', content: userContent(rest, wire.content, where), ...name }];
      return [...tools, ...user];
    }
  }
}

function formOf(message: OpenAIMessage): ContentForm {
  if (!('content' in message) || message.content === undefined) return 'absent';
  if (message.content === null) return 'null';
  return typeof message.content === 'string' ? 'string' : 'parts';
}

function textParts(content: string | OpenAITextPart[], id: (index: number) => string): Part[] {
  if (typeof content === 'string') return [{ id: id(0), type: 'text', text: content }];
  return content.map((item, index) => ({ id: id(index), type: 'text', text: item.text }));
}

function userParts(content: string | OpenAIUserPart[], id: (index: number) => string, where: string): Part[] {
  if (typeof content === 'string') return [{ id: id(0), type: 'text', text: content }];
  return content.map((item, index): Part => {
    if (item.type === 'text') return { id: id(index), type: 'text', text: item.text };
    if (item.type === 'image_url') {
      const extra = item.image_url.detail === undefined ? {} : { extra: { detail: item.image_url.detail } };
      return { id: id(index), type: 'image', source: { kind: 'url', url: item.image_url.url }, ...extra };
    }
    throw new AdapterError(
      `${where}.content[${index}]`,
      `unsupported content part type ${JSON.stringify((item as { type?: unknown }).type)}; ctxhost models text and image_url`,
    );
  });
}

function callPart(call: OpenAIToolCall, id: string, where: string): Part {
  let input: JsonValue;
  try {
    input = JSON.parse(call.function.arguments) as JsonValue;
  } catch {
    return {
      id,
      type: 'tool-call',
      callId: call.id,
      name: call.function.name,
      input: call.function.arguments,
      extra: { arguments: call.function.arguments, argumentsInvalid: true },
    };
  }
  if (call.type !== 'function')
    throw new AdapterError(`${where}.type`, `expected "function", got ${JSON.stringify(call.type)}`);
  const canonical = JSON.stringify(input) === call.function.arguments;
  return {
    id,
    type: 'tool-call',
    callId: call.id,
    name: call.function.name,
    input,
    ...(canonical ? {} : { extra: { arguments: call.function.arguments } }),
  };
}

function callTo(part: Extract<Part, { type: 'tool-call' }>): OpenAIToolCall {
  const raw = part.extra?.['arguments'];
  return {
    id: part.callId,
    type: 'function',
    function: { name: part.name, arguments: typeof raw === 'string' ? raw : JSON.stringify(part.input) },
  };
}

function textContent(parts: readonly Part[], form: ContentForm | undefined): string | OpenAITextPart[] {
  // A provider's compaction goes to chat as its readable copy (an encrypted item with none says so).
  const texts = parts.flatMap((part) =>
    part.type !== 'text'
      ? []
      : part.text === '' && nativeCompactionOf(part) !== undefined
        ? [NO_READABLE_COPY]
        : [part.text],
  );
  if (form === 'parts') return texts.map((text) => ({ type: 'text', text }));
  return texts.join('\n');
}

function userContent(parts: readonly Part[], form: ContentForm | undefined, where: string): string | OpenAIUserPart[] {
  if (form !== 'parts' && parts.every((part) => part.type === 'text'))
    return parts.map((part) => (part as { text: string }).text).join('\n');
  return parts.map((part, index): OpenAIUserPart => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    if (part.type === 'image') {
      const url =
        part.source.kind === 'url'
          ? part.source.url
          : part.source.kind === 'base64'
            ? `data:${part.source.mediaType};base64,${part.source.data}`
            : undefined;
      if (url !== undefined) {
        const detail = part.extra?.['detail'];
        return {
          type: 'image_url',
          image_url: { url, ...(detail === 'auto' || detail === 'low' || detail === 'high' ? { detail } : {}) },
        };
      }
    }
    throw new AdapterError(`${where}.parts[${index}]`, `a ${part.type} part has no OpenAI chat form here`);
  });
}

function resultContent(output: string | ToolResultContent[], form: ContentForm | undefined): string | OpenAITextPart[] {
  if (typeof output === 'string') return output;
  const texts = output.flatMap((item) => (item.type === 'text' ? [item.text] : []));
  return form === 'parts' ? texts.map((text) => ({ type: 'text', text })) : texts.join('\n');
}

function withWire(message: Message, wire: OpenAIWire): Message {
  const openai: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(wire) as [string, string | undefined][])
    if (value !== undefined) openai[key] = value;
  return { ...message, meta: { ...message.meta, wire: { openai } } };
}

function wireOf(message: Message): OpenAIWire {
  const wire = message.meta?.['wire'];
  const openai =
    typeof wire === 'object' && wire !== null && !Array.isArray(wire)
      ? (wire as Record<string, JsonValue>)['openai']
      : undefined;
  return typeof openai === 'object' && openai !== null && !Array.isArray(openai) ? openai : {};
}
