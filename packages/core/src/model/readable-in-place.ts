import type { Message } from './message.js';
import { NO_READABLE_COPY, openAICompactionItemOf } from './native-compaction-part.js';

/**
 * The messages with every OpenAI compaction item replaced by its readable copy (plain text, the
 * item's fields gone): what to send when OpenAI refuses an item it cannot decrypt (another
 * organisation's or project's key, another model). Undefined when there is no item to replace.
 */
export function readableInPlaceOfOpaque(messages: readonly Message[]): Message[] | undefined {
  let replaced = false;
  const swapped = messages.map((message) => {
    if (!message.parts.some((part) => openAICompactionItemOf(part) !== undefined)) return message;
    replaced = true;
    return {
      ...message,
      parts: message.parts.map((part) =>
        openAICompactionItemOf(part) === undefined || part.type !== 'text'
          ? part
          : { id: part.id, type: 'text' as const, text: part.text === '' ? NO_READABLE_COPY : part.text },
      ),
    };
  });
  return replaced ? swapped : undefined;
}

/** OpenAI's refusal of a compaction item it cannot decrypt (400 `invalid_encrypted_content`). */
export function isInvalidEncryptedContent(error: unknown): boolean {
  const record = error as { status?: unknown; code?: unknown; error?: { code?: unknown } } | undefined;
  return record?.status === 400 && (record.code ?? record.error?.code) === 'invalid_encrypted_content';
}
