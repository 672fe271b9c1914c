import type Anthropic from '@anthropic-ai/sdk';
import {
  AdapterError,
  fromAnthropic,
  type AnthropicMessageParam,
  type AnthropicSystem,
  type MappedPromptItem,
  type Message,
} from '@ctxhost/core';

/** The request's `system`, as one prompt item before its messages. */
export interface AnthropicSystemItem {
  readonly system: NonNullable<Anthropic.MessageCreateParams['system']>;
}

/** One item of a Messages request's prompt: its system, then each message param. */
export type AnthropicPromptItem = AnthropicSystemItem | Anthropic.MessageParam;

/**
 * The request's prompt as items: a list of its own (the caller goes on pushing to theirs, and core's
 * prompt chain keeps the list it was given), the caller's message params in it. The system item is the
 * same object for the same `system` value, so the chain recognises it without hashing it again.
 */
export function createPromptItems(): (params: Anthropic.MessageCreateParams) => readonly AnthropicPromptItem[] {
  let last: AnthropicSystemItem | undefined;
  return (params) => {
    if (params.system === undefined) return [...params.messages];
    if (last?.system !== params.system) last = { system: params.system };
    return [last, ...params.messages];
  };
}

/**
 * One prompt item as a ctxhost message, through core's Anthropic adapter (text, image, document,
 * thinking, redacted thinking, tool_use, tool_result and compaction blocks, cache_control and every
 * unmodelled field kept), the caller's blocks behind its parts. A block the adapter does not model
 * (a server tool's, a search result) is named, so the request goes out untouched.
 */
export function fromAnthropicItem(item: AnthropicPromptItem, id: string): MappedPromptItem<unknown> {
  try {
    const message = 'system' in item ? systemMessage(item.system) : messageOf(item);
    const content = 'system' in item ? item.system : item.content;
    const sourceParts = typeof content === 'string' ? [content] : content;
    return { ok: true, message: { ...message, id }, sourceParts };
  } catch (error) {
    if (error instanceof AdapterError) return { ok: false, unmappedType: unmappedTypeOf(item, error) };
    throw error;
  }
}

function systemMessage(system: AnthropicSystemItem['system']): Message {
  return fromAnthropic([], system as AnthropicSystem)[0]!;
}

function messageOf(param: Anthropic.MessageParam): Message {
  return fromAnthropic([param as AnthropicMessageParam])[0]!;
}

function unmappedTypeOf(item: AnthropicPromptItem, error: AdapterError): string {
  const content = 'system' in item ? item.system : item.content;
  const known = new Set([
    'text',
    'image',
    'document',
    'thinking',
    'redacted_thinking',
    'tool_use',
    'tool_result',
    'compaction',
  ]);
  const block = Array.isArray(content)
    ? content.find((candidate) => !known.has(String((candidate as { type?: unknown }).type)))
    : undefined;
  const type = (block as { type?: unknown } | undefined)?.type;
  return typeof type === 'string' ? type : error.message;
}
