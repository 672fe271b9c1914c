import type OpenAI from 'openai';
import {
  AdapterError,
  fromOpenAI,
  toOpenAI,
  type MappedPromptItem,
  type Message,
  type OpenAIMessage,
  type PromptOriginals,
} from '@ctxhost/core';

export type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;

/**
 * One Chat Completions message as a ctxhost message (core's `fromOpenAI`: text, images, tool calls,
 * tool results, the wire's content form kept). A message ctxhost has no place for (a `function` role,
 * audio or file parts) is named, so the caller's prompt goes out untouched rather than lose it.
 */
export function fromChatMessage(source: ChatMessage, id: string): MappedPromptItem<unknown> {
  let mapped: Message;
  try {
    mapped = fromOpenAI([source as unknown as OpenAIMessage])[0]!;
  } catch (error) {
    if (error instanceof AdapterError) return { ok: false, unmappedType: `chat message (${error.message})` };
    throw error;
  }
  return { ok: true, message: { ...mapped, id }, sourceParts: sourcePartsOf(source) };
}

/** The caller's objects behind each part, in the order `fromOpenAI` makes the parts. */
function sourcePartsOf(source: ChatMessage): readonly unknown[] {
  if (source.role === 'tool') return [source];
  const content = source.content;
  const texts = content === null || content === undefined ? [] : typeof content === 'string' ? [content] : content;
  return source.role === 'assistant' ? [...texts, ...(source.tool_calls ?? [])] : texts;
}

/** What the request waterfall made of the prompt, as Chat Completions messages: a message no hook changed goes as the caller's own object. */
export function toChatMessages(
  messages: readonly Message[],
  originals: PromptOriginals<ChatMessage, unknown>,
): ChatMessage[] {
  return messages.flatMap((message): ChatMessage[] => {
    const source = originals.message(message.id);
    if (source !== undefined && message.parts.every((part) => originals.unchangedPart(part) !== undefined))
      return [source];
    return toOpenAI([message]);
  });
}
