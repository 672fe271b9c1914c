import type { JsonValue, Message, Part } from '../model/message.js';
import type { SecretRedactor } from './secret-redactor.js';

/**
 * A copy of the messages with every secret replaced by its typed placeholder:
 * text, reasoning, tool-call inputs (every string inside) and tool outputs.
 * What goes to a summarizer; the originals stay in the store.
 */
export function redactMessages(messages: readonly Message[], redactor: SecretRedactor): Message[] {
  return messages.map((message) => ({ ...message, parts: message.parts.map((part) => redactPart(part, redactor)) }));
}

function redactPart(part: Part, redactor: SecretRedactor): Part {
  switch (part.type) {
    case 'text':
      return { ...part, text: redactor.redactText(part.text) };
    case 'reasoning':
      return { ...part, text: redactor.redactText(part.text) };
    case 'tool-call':
      return { ...part, input: redactJson(part.input, redactor) };
    case 'tool-result':
      return {
        ...part,
        output:
          typeof part.output === 'string'
            ? redactor.redactText(part.output)
            : part.output.map((block) =>
                block.type === 'text' ? { ...block, text: redactor.redactText(block.text) } : block,
              ),
      };
    default:
      return part;
  }
}

function redactJson(value: JsonValue, redactor: SecretRedactor): JsonValue {
  if (typeof value === 'string') return redactor.redactText(value);
  if (Array.isArray(value)) return value.map((item) => redactJson(item, redactor));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactEntry(key, item, redactor)]));
  return value;
}

/** A value under a credential-like key (`{"password": "…"}`) is redacted the way `password: …` in text is. */
function redactEntry(key: string, value: JsonValue, redactor: SecretRedactor): JsonValue {
  if (typeof value !== 'string') return redactJson(value, redactor);
  const asText = redactor.redactText(`${key}: ${value}`);
  return asText.startsWith(`${key}: `) ? asText.slice(key.length + 2) : redactor.redactText(value);
}
