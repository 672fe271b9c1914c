import { AdapterError } from '../errors.js';
import type { JsonValue, Message, Part } from '../model/message.js';
import { openAICompactionItemOf, openAICompactionPart } from '../model/native-compaction-part.js';

/**
 * One OpenAI Responses item, as `input` takes it and `output` gives it back
 * (`openai` 7.57's `ResponseInputItem` / `ResponseOutputItem`, the fields
 * ctxhost reads; every other field rides along).
 */
export interface ResponsesItem {
  type?: string;
  role?: string;
  content?: string | { type: string; text?: string; [field: string]: unknown }[] | null;
  [field: string]: unknown;
}

/**
 * ctxhost → Responses `input`: system messages as `system` messages, user and
 * assistant text as messages (`input_text` / `output_text`), tool calls as
 * `function_call`, their results as `function_call_output`, reasoning with its
 * `encrypted_content` as `reasoning`, and an OpenAI compaction part as the exact
 * `compaction` item it came as. Another provider's compaction goes as its
 * readable copy (an assistant message).
 */
export function toResponsesInput(messages: readonly Message[]): ResponsesItem[] {
  return messages.flatMap((message) => {
    const items: ResponsesItem[] = [];
    let text: string[] = [];
    const flush = () => {
      if (text.length > 0) items.push(textItem(message.role, text.join('\n')));
      text = [];
    };
    for (const part of message.parts) {
      const compaction = openAICompactionItemOf(part);
      if (compaction !== undefined) {
        flush();
        items.push({ ...compaction });
      } else if (part.type === 'text') text.push(part.text === '' ? '' : part.text);
      else if (part.type === 'tool-call') {
        flush();
        items.push({
          type: 'function_call',
          call_id: part.callId,
          name: part.name,
          arguments:
            typeof part.extra?.['arguments'] === 'string' ? part.extra['arguments'] : JSON.stringify(part.input),
        });
      } else if (part.type === 'tool-result') {
        flush();
        const output =
          typeof part.output === 'string'
            ? part.output
            : part.output.map((item) => (item.type === 'text' ? item.text : '')).join('');
        items.push({ type: 'function_call_output', call_id: part.callId, output });
      } else if (part.type === 'reasoning' && typeof part.extra?.['encrypted_content'] === 'string') {
        flush();
        items.push({
          type: 'reasoning',
          ...(typeof part.extra['id'] === 'string' ? { id: part.extra['id'] } : {}),
          summary: part.text === '' ? [] : [{ type: 'summary_text', text: part.text }],
          encrypted_content: part.extra['encrypted_content'],
        });
      }
    }
    flush();
    return items.filter((item) => !(item.type === undefined && item.content === ''));
  });
}

function textItem(role: Message['role'], text: string): ResponsesItem {
  if (role === 'assistant') return { role: 'assistant', content: [{ type: 'output_text', text }] };
  if (role === 'system') return { role: 'system', content: text };
  return { role: 'user', content: text };
}

/**
 * A Responses `output` → one assistant message: `message` items' text,
 * `function_call`s as tool calls, `reasoning` (summary text, `id` and
 * `encrypted_content` kept), and a `compaction` item as an OpenAI compaction
 * part (no readable copy yet). Other items are refused, naming where.
 */
export function fromResponsesOutput(output: readonly ResponsesItem[], id: string): Message {
  const parts: Part[] = output.flatMap((item, index): Part[] => {
    const partId = `${id}:${index}`;
    const where = `output[${index}]`;
    switch (item.type) {
      case 'message': {
        const content = Array.isArray(item.content) ? item.content : [];
        return content
          .filter((entry) => entry.type === 'output_text')
          .map((entry, at) => ({ id: `${partId}.${at}`, type: 'text' as const, text: String(entry.text ?? '') }));
      }
      case 'function_call': {
        const raw = String(item['arguments'] ?? '');
        return [
          {
            id: partId,
            type: 'tool-call',
            callId: String(item['call_id']),
            name: String(item['name']),
            input: parse(raw),
            extra: { arguments: raw },
          },
        ];
      }
      case 'reasoning': {
        const summary = Array.isArray(item['summary']) ? (item['summary'] as { text?: string }[]) : [];
        const extra: Record<string, JsonValue> = {};
        if (typeof item['id'] === 'string') extra['id'] = item['id'];
        if (typeof item['encrypted_content'] === 'string') extra['encrypted_content'] = item['encrypted_content'];
        return [{ id: partId, type: 'reasoning', text: summary.map((entry) => entry.text ?? '').join('\n'), extra }];
      }
      case 'compaction':
        if (typeof item['encrypted_content'] !== 'string')
          throw new AdapterError(
            `${where}.encrypted_content`,
            'expected the compaction item’s encrypted content as a string',
          );
        return [
          openAICompactionPart(
            {
              type: 'compaction',
              encrypted_content: item['encrypted_content'],
              ...(typeof item['id'] === 'string' ? { id: item['id'] } : {}),
              ...(typeof item['created_by'] === 'string' ? { created_by: item['created_by'] } : {}),
            },
            partId,
          ),
        ];
      default:
        throw new AdapterError(
          where,
          `unsupported Responses output item type ${JSON.stringify(item.type)}; ctxhost models message, function_call, reasoning and compaction`,
        );
    }
  });
  return { id, role: 'assistant', parts };
}

function parse(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}
