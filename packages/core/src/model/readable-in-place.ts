import type { Message } from './message.js';
import { NO_READABLE_COPY, openAICompactionItemOf } from './native-compaction-part.js';

/**
 * The messages with every OpenAI compaction item replaced by its readable copy (plain text, the
 * item's fields gone): what to send when OpenAI refuses an item it cannot decrypt (another
 * organisation's or project's key, another model). Undefined when there is no item to replace.
 */
export function readableInPlaceOfOpaque(messages: readonly Message[]): Message[] | undefined {
  // Looked for first without a copy: most prompts hold no item, and this runs on every call to a model that takes none.
  const first = messages.findIndex(holdsItem);
  if (first === -1) return undefined;
  const swapped = messages.slice();
  for (let index = first; index < swapped.length; index++)
    if (holdsItem(swapped[index]!)) swapped[index] = readable(swapped[index]!);
  return swapped;
}

function holdsItem(message: Message): boolean {
  for (const part of message.parts) if (openAICompactionItemOf(part) !== undefined) return true;
  return false;
}

function readable(message: Message): Message {
  return {
    ...message,
    parts: message.parts.map((part) =>
      openAICompactionItemOf(part) === undefined || part.type !== 'text'
        ? part
        : { id: part.id, type: 'text' as const, text: part.text === '' ? NO_READABLE_COPY : part.text },
    ),
  };
}

/** OpenAI's refusal of a compaction item it cannot decrypt (400 `invalid_encrypted_content`). */
export function isInvalidEncryptedContent(error: unknown): boolean {
  const record = error as { status?: unknown; code?: unknown; error?: { code?: unknown } } | undefined;
  return record?.status === 400 && (record.code ?? record.error?.code) === 'invalid_encrypted_content';
}
