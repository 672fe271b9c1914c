import {
  createTokenCounter,
  estimateTokens,
  getModelInfo,
  toOpenAI,
  type CachingTokenCounter,
  type Message,
  type ModelOverride,
  type OpenAIMessage,
} from '@ctxhost/core';

/** The encodings OpenAI's chat models use (the model registry's `tokenizer` field). */
export const OPENAI_ENCODINGS = ['o200k_base', 'cl100k_base', 'o200k_harmony'] as const;
export type OpenAIEncodingName = (typeof OPENAI_ENCODINGS)[number];

/** An encoding, loaded: counts the tokens of a text exactly. */
export interface OpenAIEncoding {
  name: OpenAIEncodingName;
  countText(text: string): number;
}

/** Tokens around each chat message: `<|im_start|>`, the role's separator, `<|im_end|>` (OpenAI's cookbook; gpt-tokenizer's encodeChat). */
export const TOKENS_PER_MESSAGE = 3;
/** Tokens around each tool call. OpenAI does not publish this framing: an approximation. */
export const TOKENS_PER_TOOL_CALL = 3;

/**
 * Loads an encoding of `gpt-tokenizer` on first use (each is megabytes of BPE
 * ranks, so only the one a model needs is imported).
 */
export async function loadOpenAIEncoding(name: OpenAIEncodingName): Promise<OpenAIEncoding> {
  const module = await importEncoding(name);
  return { name, countText: (text) => (text.length === 0 ? 0 : module.countTokens(text)) };
}

function importEncoding(name: OpenAIEncodingName): Promise<{ countTokens(text: string): number }> {
  switch (name) {
    case 'o200k_base':
      return import('gpt-tokenizer/encoding/o200k_base');
    case 'cl100k_base':
      return import('gpt-tokenizer/encoding/cl100k_base');
    case 'o200k_harmony':
      return import('gpt-tokenizer/encoding/o200k_harmony');
  }
}

/**
 * A token counter with the model's real encoding: each message as Chat
 * Completions sends it (`toOpenAI`), 3 framing tokens, the role, the text; tool
 * calls add their name and JSON arguments. Images and files, whose cost
 * OpenAI computes from pixels, take the calibrated estimator's figure.
 * Cached per message like the estimator (`createTokenCounter`).
 */
export function createOpenAITokenCounter(encoding: OpenAIEncoding): CachingTokenCounter {
  const counter = createTokenCounter({
    name: `tiktoken:${encoding.name}`,
    estimate: (message) => countMessage(encoding, message),
  });
  return { ...counter, countText: (text) => encoding.countText(text) };
}

/** The exact counter for a model whose encoding the registry knows (`gpt-4o`, `openai/gpt-5`, …); undefined otherwise. */
export async function openAITokenCounterFor(
  model: string,
  models?: Readonly<Record<string, ModelOverride>>,
): Promise<CachingTokenCounter | undefined> {
  const tokenizer = getModelInfo(model, models)?.tokenizer;
  if (tokenizer === undefined || !(OPENAI_ENCODINGS as readonly string[]).includes(tokenizer)) return undefined;
  return createOpenAITokenCounter(await loadOpenAIEncoding(tokenizer as OpenAIEncodingName));
}

/** One ctxhost message's tokens as Chat Completions messages. */
export function countMessage(encoding: OpenAIEncoding, message: Message): number {
  const media = message.parts.filter((part) => part.type === 'image' || part.type === 'file');
  const textual =
    media.length === 0
      ? message
      : { ...message, parts: message.parts.filter((part) => part.type !== 'image' && part.type !== 'file') };
  const wire = textual.parts.length === 0 ? [] : toOpenAI([textual]);
  const mediaTokens = media.length === 0 ? 0 : estimateTokens({ ...message, parts: media });
  return wire.reduce((sum, chat) => sum + countChatMessage(encoding, chat), 0) + mediaTokens;
}

/** One Chat Completions message: framing, role, text, tool calls. */
export function countChatMessage(encoding: OpenAIEncoding, message: OpenAIMessage): number {
  const calls = message.role === 'assistant' ? (message.tool_calls ?? []) : [];
  const callTokens = calls.reduce(
    (sum, call) =>
      sum + TOKENS_PER_TOOL_CALL + encoding.countText(call.function.name) + encoding.countText(call.function.arguments),
    0,
  );
  return (
    TOKENS_PER_MESSAGE + encoding.countText(message.role) + encoding.countText(chatMessageText(message)) + callTokens
  );
}

/** The text of a chat message's content (parts joined). */
export function chatMessageText(message: OpenAIMessage): string {
  const content = message.content;
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}
