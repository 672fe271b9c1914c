import {
  fromAnthropic,
  type AnthropicMessageParam,
  type AnthropicSystem,
  type MappedPromptItem,
  type Message,
  type WireMessage,
} from '@ctxhost/core';

/**
 * One message of a wire request as the stateless path takes it: the message
 * read as a Messages-API turn (core's shared reading of every protocol), and
 * the request's own items it was read from, sent again as they came when the
 * projection keeps the message unchanged.
 */
export interface PromptItem {
  /** `system`: the request's system prompt, counted but never rewritten. */
  kind: 'system' | 'turn';
  turn: WireMessage;
  /** The request's own items behind this message (empty for the system prompt). */
  raw: unknown[];
  /** The index of its first item in the request (-1 for the system prompt). */
  first: number;
}

/** The stateless path's mapping: one prompt item to one ctxhost message; an unknown block type names itself. */
export function mapPromptItem(item: PromptItem, id: string): MappedPromptItem<unknown> {
  try {
    const [message] =
      item.kind === 'system'
        ? fromAnthropic([], item.turn.content as AnthropicSystem, { idPrefix: id })
        : fromAnthropic([item.turn as AnthropicMessageParam], undefined, { idPrefix: id });
    if (message === undefined) return { ok: false, unmappedType: 'empty' };
    const blocks = typeof item.turn.content === 'string' ? [item.turn.content] : item.turn.content;
    return { ok: true, message: withId(message, id), sourceParts: blocks };
  } catch (error) {
    return { ok: false, unmappedType: unmappedTypeOf(error) };
  }
}

function withId(message: Message, id: string): Message {
  return { ...message, id, parts: message.parts.map((part, index) => ({ ...part, id: `${id}:${index}` })) };
}

function unmappedTypeOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return /type "([^"]+)"/.exec(text)?.[1] ?? 'unreadable';
}
