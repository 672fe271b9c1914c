import type { JsonValue, MediaSource, Message, Part, ToolResultContent } from '../model/message.js';
import { isSecretName } from './secret-assignments.js';
import { redactionPlaceholder, type SecretRedactor } from './secret-redactor.js';

/** Nesting past this is not walked further: the value is replaced whole (a hostile input cannot exhaust the stack). */
const MAX_DEPTH = 64;

/**
 * A copy of the messages with every secret replaced by its typed placeholder,
 * in everything a summarizer is sent: text, reasoning, tool names, tool-call
 * inputs (keys, strings, numbers, JSON inside strings, at any depth), tool
 * outputs, text files and `extra` fields. Any value under a secret-like key
 * (`{ password: ["…"] }`, `{ api_key: 12345678 }`) is a secret whatever its
 * shape. The originals stay in the store.
 */
export function redactMessages(messages: readonly Message[], redactor: SecretRedactor): Message[] {
  return messages.map((message) => ({ ...message, parts: message.parts.map((part) => redactPart(part, redactor)) }));
}

function redactPart(part: Part, redactor: SecretRedactor): Part {
  const extra = part.extra === undefined ? {} : { extra: redactRecord(part.extra, redactor) };
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return { ...part, ...extra, text: redactor.redactText(part.text) };
    case 'tool-call':
      return { ...part, ...extra, name: redactor.redactText(part.name), input: redactJson(part.input, redactor, 0) };
    case 'tool-result':
      return {
        ...part,
        ...extra,
        ...(part.name === undefined ? {} : { name: redactor.redactText(part.name) }),
        output:
          typeof part.output === 'string'
            ? redactor.redactText(part.output)
            : part.output.map((block) => redactBlock(block, redactor)),
      };
    case 'image':
    case 'file':
      return { ...part, ...extra, source: redactSource(part.source, redactor) };
  }
}

function redactBlock(block: ToolResultContent, redactor: SecretRedactor): ToolResultContent {
  const extra = block.extra === undefined ? {} : { extra: redactRecord(block.extra, redactor) };
  if (block.type === 'text') return { ...block, ...extra, text: redactor.redactText(block.text) };
  return { ...block, ...extra, source: redactSource(block.source, redactor) };
}

/** A text file's content and a URL's credentials; base64 data is left as it is (an image, a PDF). */
function redactSource(source: MediaSource, redactor: SecretRedactor): MediaSource {
  if (source.kind === 'text') return { ...source, text: redactor.redactText(source.text) };
  if (source.kind === 'url') return { ...source, url: redactor.redactText(source.url) };
  return source;
}

function redactRecord(record: Record<string, JsonValue>, redactor: SecretRedactor): Record<string, JsonValue> {
  return redactJson(record, redactor, 0) as Record<string, JsonValue>;
}

function redactJson(value: JsonValue, redactor: SecretRedactor, depth: number): JsonValue {
  if (depth > MAX_DEPTH) return redactionPlaceholder('nested-too-deep');
  if (typeof value === 'string') return redactString(value, redactor, depth);
  if (Array.isArray(value)) return value.map((item) => redactJson(item, redactor, depth + 1));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, JsonValue> = {};
    for (const [key, item] of Object.entries(value)) {
      const name = redactor.redactText(key);
      const redacted = isSecretName(key) ? redactSecretValue(item) : redactJson(item, redactor, depth + 1);
      Object.defineProperty(out, name, { value: redacted, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}

/** Under a secret-like key every leaf is a secret: strings, numbers, and what arrays and objects hold. */
function redactSecretValue(value: JsonValue): JsonValue {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'string' && value.length === 0) return value;
  return redactionPlaceholder('password');
}

/** A string that is itself JSON (`"{\"password\": \"…\"}"`) is walked as JSON; any other string as text. */
function redactString(value: string, redactor: SecretRedactor, depth: number): string {
  const trimmed = value.trimStart();
  if ((trimmed.startsWith('{') || trimmed.startsWith('[')) && value.length <= 1_000_000) {
    try {
      const parsed = JSON.parse(value) as JsonValue;
      return JSON.stringify(redactJson(parsed, redactor, depth + 1));
    } catch {
      // Not JSON: text.
    }
  }
  return redactor.redactText(value);
}
