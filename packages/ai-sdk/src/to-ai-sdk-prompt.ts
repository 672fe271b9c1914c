import {
  NO_READABLE_COPY,
  createPromptRenderer,
  nativeCompactionOf,
  type CacheControl,
  type CallerList,
  type MediaSource,
  type Message,
  type NativeCompaction,
  type Part,
  type PromptOriginals,
  type PromptRenderer,
  type ToolResultPart,
} from '@ctxhost/core';
import type { AiMessage, AiPart, AiPrompt, AiProviderOptions } from './ai-sdk-types.js';
import { CUSTOM_PART, OPENAI_COMPACTION_KIND } from './from-ai-sdk-prompt.js';

/** The caller's messages and parts by ctxhost id. */
export type AiOriginals = PromptOriginals<AiMessage, AiPart>;

type UserPart = Extract<AiMessage, { role: 'user' }>['content'][number];
type AssistantPart = Extract<AiMessage, { role: 'assistant' }>['content'][number];
type ToolPart = Extract<AiMessage, { role: 'tool' }>['content'][number];

/**
 * The request's messages (after the waterfall) as an AI SDK prompt. Parts
 * that are as the caller sent them go out as the caller's objects; parts a
 * hook rewrote (a truncated tool output, a summary) are built from ctxhost's
 * model. A cache breakpoint becomes `providerOptions.anthropic.cacheControl`.
 * A provider's compaction goes as that provider's own part when `provider`
 * (the model's `provider`) is the one that made it, and as its readable copy
 * anywhere else (see `nativeCompactionPart`).
 */
export function toAiSdkPrompt(messages: readonly Message[], originals: AiOriginals, provider?: string): AiPrompt {
  return renderAiSdkPrompt(messages, originals, provider).prompt;
}

/** The AI SDK prompt, and whether it sends Anthropic's compaction block (a request that does needs its beta). */
export interface RenderedAiSdkPrompt {
  prompt: AiPrompt;
  sendsAnthropicCompaction: boolean;
}

/**
 * `toAiSdkPrompt`, kept per view (its originals) and provider: the next call renders only the messages
 * that are not the objects at the same place last time (new, or a cache breakpoint moved) and copies
 * the rest of the last prompt, and counts Anthropic compaction blocks for the changed messages only.
 * With `caller` (the AI SDK's own prompt), that prompt itself when the rendering is exactly it.
 */
export function renderAiSdkPrompt(
  messages: readonly Message[],
  originals: AiOriginals,
  provider: string | undefined,
  caller?: CallerList<AiMessage>,
): RenderedAiSdkPrompt {
  let kept = renderers.get(originals);
  if (kept === undefined || kept.provider !== provider) {
    kept = {
      provider,
      renderer: createPromptRenderer<AiMessage>({
        render: (message) => toAiSdkMessages(message, originals, provider),
        tally: holdsAnthropicCompaction,
      }),
    };
    renderers.set(originals, kept);
  }
  const rendered = kept.renderer.render(messages, 0, caller);
  return { prompt: rendered.items, sendsAnthropicCompaction: rendered.tally > 0 };
}

/** Per view (its originals), the renderer of its last provider. */
const renderers = new WeakMap<AiOriginals, { provider: string | undefined; renderer: PromptRenderer<AiMessage> }>();

function holdsAnthropicCompaction(message: Message): number {
  return message.parts.some((part) => nativeCompactionOf(part)?.vendor === 'anthropic') ? 1 : 0;
}

function toAiSdkMessages(message: Message, originals: AiOriginals, provider: string | undefined): AiMessage[] {
  const same = originals.sameMessage(message);
  if (same !== undefined && rendersAsSent(message)) return [same];
  const source = originals.message(message.id);
  const messageOptions = source?.providerOptions;
  // A provider's compaction is built for the provider the call goes to, never copied from the caller's part.
  const parts = message.parts.map((part) =>
    withCacheControl(
      (nativeCompactionOf(part) === undefined ? originals.unchangedPart(part) : undefined) ??
        fromPart(part, source, provider),
      part.cacheControl,
    ),
  );
  switch (message.role) {
    case 'system': {
      const marked = message.parts.find((part) => part.cacheControl !== undefined)?.cacheControl;
      const text = message.parts.map((part) => ('text' in part ? part.text : '')).join('\n');
      return [
        {
          role: 'system',
          content: text,
          ...providerOptionsOf(marked === undefined ? messageOptions : anthropicCache(messageOptions, marked)),
        },
      ];
    }
    case 'assistant':
      return [{ role: 'assistant', content: parts.filter(isAssistantPart), ...providerOptionsOf(messageOptions) }];
    case 'tool':
      return [{ role: 'tool', content: parts.filter(isToolPart), ...providerOptionsOf(messageOptions) }];
    case 'user': {
      // A hook may leave tool results in a user turn (the Anthropic shape); the AI SDK wants them in a tool message first.
      // OpenAI's compaction item has no role (ctxhost keeps it in a user turn): the AI SDK carries it in an assistant turn.
      const results = parts.filter(isToolPart);
      const items = parts.filter((part) => part.type === 'custom');
      const rest = parts.filter(isUserPart);
      return [
        ...(items.length > 0 ? [{ role: 'assistant' as const, content: items }] : []),
        ...(results.length > 0 ? [{ role: 'tool' as const, content: results }] : []),
        ...(rest.length > 0 ? [{ role: 'user' as const, content: rest, ...providerOptionsOf(messageOptions) }] : []),
      ];
    }
  }
}

/**
 * Whether the caller's own message is what `message` renders to, when it is the very message mapped from
 * it: unless a part carries a cache breakpoint or ctxhost's marks (a provider's compaction, a custom part).
 */
function rendersAsSent(message: Message): boolean {
  for (const part of message.parts)
    if (part.cacheControl !== undefined || (part.type === 'text' && part.extra !== undefined)) return false;
  return true;
}

function fromPart(part: Part, source: AiMessage | undefined, provider: string | undefined): AiPart {
  switch (part.type) {
    case 'text': {
      const native = nativeCompactionOf(part);
      if (native !== undefined) return nativeCompactionPart(native, provider);
      const kind = part.extra?.[CUSTOM_PART];
      return typeof kind === 'string' && kind.includes('.')
        ? { type: 'custom', kind: kind as `${string}.${string}` }
        : { type: 'text', text: part.text };
    }
    case 'reasoning':
      return { type: 'reasoning', text: part.text };
    case 'tool-call':
      return { type: 'tool-call', toolCallId: part.callId, toolName: part.name, input: part.input };
    case 'tool-result':
      return fromToolResult(part, source);
    case 'image':
    case 'file':
      return {
        type: 'file',
        ...fileData(part.source, part.type),
        ...(part.type === 'file' && part.title !== undefined ? { filename: part.title } : {}),
      };
  }
}

/**
 * A provider's compaction. OpenAI's encrypted item, to `@ai-sdk/openai`'s Responses model, as the
 * `custom` part it sends back as the item (`kind: 'openai.compaction'`, `itemId` and `encryptedContent`;
 * it drops an item without an id). Anthropic's block, to `@ai-sdk/anthropic` or to a call that names no
 * provider, as the text part it sends back as the block (marked `type: 'compaction'`, with its
 * signature). Anywhere else, the readable copy as text.
 */
function nativeCompactionPart(native: NativeCompaction, provider: string | undefined): AiPart {
  const readable = { type: 'text' as const, text: native.readable === '' ? NO_READABLE_COPY : native.readable };
  if (native.vendor === 'openai') {
    const { id, encrypted_content: encryptedContent } = native.fields;
    if (provider !== 'openai.responses' || typeof id !== 'string' || typeof encryptedContent !== 'string')
      return readable;
    return {
      type: 'custom',
      kind: OPENAI_COMPACTION_KIND,
      providerOptions: { openai: { itemId: id, encryptedContent } },
    };
  }
  if (provider !== undefined && !provider.startsWith('anthropic')) return readable;
  const signature = native.fields['signature'];
  return {
    type: 'text',
    text: native.readable,
    providerOptions: { anthropic: { type: 'compaction', ...(typeof signature === 'string' ? { signature } : {}) } },
  };
}

function fromToolResult(part: ToolResultPart, source: AiMessage | undefined): AiPart {
  const callerPart =
    typeof source?.content === 'string'
      ? undefined
      : source?.content.find((candidate) => candidate.type === 'tool-result' && candidate.toolCallId === part.callId);
  const toolName = part.name ?? (callerPart?.type === 'tool-result' ? callerPart.toolName : 'tool');
  if (typeof part.output === 'string')
    return {
      type: 'tool-result',
      toolCallId: part.callId,
      toolName,
      output: { type: part.isError === true ? 'error-text' : 'text', value: part.output },
    };
  const value = part.output.map((item) =>
    item.type === 'text'
      ? { type: 'text' as const, text: item.text }
      : { type: 'file' as const, ...fileData(item.source, item.type) },
  );
  return { type: 'tool-result', toolCallId: part.callId, toolName, output: { type: 'content', value } };
}

/** A URL source has no media type in ctxhost's model: the top-level type (`image`) is what the AI SDK accepts for it. */
function fileData(
  source: MediaSource,
  kind: 'image' | 'file',
): { data: Extract<AiPart, { type: 'file' }>['data']; mediaType: string } {
  switch (source.kind) {
    case 'base64':
      return { data: { type: 'data', data: source.data }, mediaType: source.mediaType };
    case 'url':
      return { data: { type: 'url', url: new URL(source.url) }, mediaType: kind === 'image' ? 'image' : 'application' };
    case 'text':
      return { data: { type: 'text', text: source.text }, mediaType: source.mediaType };
  }
}

function withCacheControl(part: AiPart, cacheControl: CacheControl | undefined): AiPart {
  if (cacheControl === undefined) return part;
  return { ...part, providerOptions: anthropicCache(part.providerOptions, cacheControl) };
}

function anthropicCache(options: AiProviderOptions | undefined, cacheControl: CacheControl): AiProviderOptions {
  return { ...options, anthropic: { ...options?.anthropic, cacheControl: { ...cacheControl } } };
}

function providerOptionsOf(options: AiProviderOptions | undefined): { providerOptions?: AiProviderOptions } {
  return options === undefined ? {} : { providerOptions: options };
}

function isUserPart(part: AiPart): part is UserPart {
  return part.type === 'text' || part.type === 'file';
}

function isAssistantPart(part: AiPart): part is AssistantPart {
  return part.type !== 'tool-approval-response';
}

function isToolPart(part: AiPart): part is ToolPart {
  return part.type === 'tool-result' || part.type === 'tool-approval-response';
}
