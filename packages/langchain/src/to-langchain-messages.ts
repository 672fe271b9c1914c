import {
  NO_READABLE_COPY,
  createPromptRenderer,
  type CallerList,
  nativeCompactionOf,
  openAICompactionItemOf,
  type CacheControl,
  type Message,
  type OpenAICompactionItem,
  type Part,
  type PromptOriginals,
  type PromptRenderer,
} from '@ctxhost/core';
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { blocksOf, toolCallsOf } from './from-langchain-message.js';
import type { LangChainProvider } from './model-facts.js';

/** The request LangChain sends: the system message apart (`ModelRequest.systemMessage`), the rest as `messages`. */
export interface LangChainRequest {
  systemMessage: SystemMessage | undefined;
  messages: BaseMessage[];
  /** Whether an assistant message carries Anthropic's compaction block (`ChatAnthropic` then needs its beta). */
  sendsAnthropicCompaction: boolean;
}

type Block = Record<string, unknown>;

/**
 * What the request waterfall made of the session, as LangChain messages.
 * Messages a hook left alone are the caller's own objects; a message a hook
 * changed (a truncated tool output, a summary) is rebuilt. With
 * `cacheControl` (a `ChatAnthropic` model), a part's breakpoint becomes
 * `cache_control` on the message's last block, which `@langchain/anthropic`
 * sends as it is; without it, breakpoints are left out. A provider's
 * compaction goes as that provider's own block or item when `provider` (the
 * chat model the request goes to; default `anthropic` with `cacheControl`)
 * made it, and as its readable copy anywhere else. With `caller` (the
 * request's own messages), those messages themselves when the rendering
 * after the system message is exactly them.
 */
export function toLangChainRequest(
  messages: readonly Message[],
  originals: PromptOriginals<BaseMessage, unknown>,
  options: { cacheControl: boolean; provider?: LangChainProvider },
  caller?: CallerList<BaseMessage>,
): LangChainRequest {
  const provider = options.provider ?? (options.cacheControl ? 'anthropic' : 'other');
  let head = 0;
  while (head < messages.length && messages[head]!.role === 'system') head++;
  const system = messages
    .slice(0, head)
    .flatMap((message) => render(message, originals, options.cacheControl, provider));
  const rest = rendererFor(originals, options.cacheControl, provider).render(messages, head, caller);
  return { systemMessage: systemOf(system), messages: rest.items, sendsAnthropicCompaction: rest.tally > 0 };
}

/** Per view (its originals), the renderer of its last settings: the next call renders only new or replaced messages. */
const renderers = new WeakMap<
  PromptOriginals<BaseMessage, unknown>,
  { settings: string; renderer: PromptRenderer<BaseMessage> }
>();

function rendererFor(
  originals: PromptOriginals<BaseMessage, unknown>,
  cache: boolean,
  provider: LangChainProvider,
): PromptRenderer<BaseMessage> {
  const settings = `${cache}:${provider}`;
  let kept = renderers.get(originals);
  if (kept === undefined || kept.settings !== settings) {
    kept = {
      settings,
      renderer: createPromptRenderer({
        render: (message) => render(message, originals, cache, provider),
        tally: (message) => (holdsAnthropicCompaction(message) ? 1 : 0),
      }),
    };
    renderers.set(originals, kept);
  }
  return kept.renderer;
}

function holdsAnthropicCompaction(message: Message): boolean {
  return message.role === 'assistant' && message.parts.some((part) => nativeCompactionOf(part)?.vendor === 'anthropic');
}

function render(
  message: Message,
  originals: PromptOriginals<BaseMessage, unknown>,
  cache: boolean,
  provider: LangChainProvider,
): BaseMessage[] {
  const same = originals.sameMessage(message);
  const source = same ?? originals.message(message.id);
  const unchanged =
    source !== undefined &&
    (same !== undefined
      ? message.parts.every((part) => ownCompaction(part, provider))
      : message.parts.every((part) => originals.unchangedPart(part) !== undefined && ownCompaction(part, provider)));
  const marker = cache ? message.parts.find((part) => part.cacheControl !== undefined)?.cacheControl : undefined;
  const out = unchanged ? [source] : rebuild(message, source, provider);
  if (marker === undefined || out.length === 0) return out;
  return [...out.slice(0, -1), withCacheControl(out.at(-1)!, marker)];
}

/** A part the caller's own message may carry to `provider` as it is: anything but another provider's compaction. */
function ownCompaction(part: Part, provider: LangChainProvider): boolean {
  const native = nativeCompactionOf(part);
  if (native === undefined) return true;
  return native.vendor === 'anthropic' ? provider === 'anthropic' : provider === 'openai-responses';
}

/**
 * A provider's compaction for the request's provider: Anthropic's block (in an assistant message) to
 * `ChatAnthropic`; OpenAI's encrypted item to `ChatOpenAI` on the Responses API, which sends an assistant
 * message's `response_metadata.output` items as they are (the only carrier of an item it has no block
 * for); the readable copy anywhere else.
 */
function nativeRendering(
  part: Part,
  role: Message['role'],
  provider: LangChainProvider,
): { block: Block } | { item: OpenAICompactionItem } | undefined {
  const native = nativeCompactionOf(part);
  if (native === undefined) return undefined;
  if (native.vendor === 'anthropic' && provider === 'anthropic' && role === 'assistant')
    return { block: { type: 'compaction', content: native.readable } };
  const item = provider === 'openai-responses' ? openAICompactionItemOf(part) : undefined;
  if (item !== undefined) return { item };
  return { block: { type: 'text', text: native.readable === '' ? NO_READABLE_COPY : native.readable } };
}

/** OpenAI's compaction items as the assistant message `ChatOpenAI` sends as those items (none when there are none). */
function itemsMessage(items: OpenAICompactionItem[]): BaseMessage[] {
  return items.length === 0 ? [] : [new AIMessage({ content: '', response_metadata: { output: items } })];
}

function rebuild(message: Message, source: BaseMessage | undefined, provider: LangChainProvider): BaseMessage[] {
  const id = source?.id === undefined ? {} : { id: source.id };
  const items: OpenAICompactionItem[] = [];
  /** A part's block, an OpenAI item set aside for `itemsMessage`; undefined when the part is not a provider's compaction. */
  const nativeBlocks = (part: Part): Block[] | undefined => {
    const rendering = nativeRendering(part, message.role, provider);
    if (rendering === undefined) return undefined;
    if ('item' in rendering) {
      items.push(rendering.item);
      return [];
    }
    return [rendering.block];
  };
  switch (message.role) {
    case 'system':
      return [new SystemMessage({ content: textOf(message.parts), ...id })];
    case 'assistant': {
      const content: Block[] = message.parts.flatMap((part): Block[] => {
        const native = nativeBlocks(part);
        if (native !== undefined) return native;
        if (part.type === 'text') return part.text === '' ? [] : [{ type: 'text', text: part.text }];
        if (part.type === 'reasoning' && part.signature !== undefined)
          return [{ type: 'thinking', thinking: part.text, signature: part.signature }];
        return [];
      });
      const toolCalls = message.parts.flatMap((part) =>
        part.type === 'tool-call'
          ? [{ id: part.callId, name: part.name, args: asArgs(part.input), type: 'tool_call' as const }]
          : [],
      );
      const rest =
        content.length === 0 && toolCalls.length === 0 && items.length > 0
          ? []
          : [new AIMessage({ content: plainWhenText(content) as never, tool_calls: toolCalls, ...id })];
      return [...itemsMessage(items), ...rest];
    }
    case 'tool':
    case 'user': {
      const results = message.parts.flatMap((part) =>
        part.type === 'tool-result'
          ? [
              new ToolMessage({
                content: typeof part.output === 'string' ? part.output : textOf(part.output),
                tool_call_id: part.callId,
                ...(part.name === undefined ? {} : { name: part.name }),
                ...(part.isError === true ? { status: 'error' as const } : {}),
                ...id,
              }),
            ]
          : [],
      );
      const rest = message.parts.flatMap((part): Block[] => {
        const native = nativeBlocks(part);
        if (native !== undefined) return native;
        if (part.type === 'text') return [{ type: 'text', text: part.text }];
        if (part.type === 'image' && part.source.kind !== 'text')
          return [{ type: 'image_url', image_url: { url: imageUrl(part.source) } }];
        return [];
      });
      return [
        ...itemsMessage(items),
        ...results,
        ...(rest.length > 0 ? [new HumanMessage({ content: plainWhenText(rest) as never })] : []),
      ];
    }
  }
}

/** A copy of `message` whose last block (not thinking) carries `cache_control`; tool calls kept in `tool_calls` are added as `tool_use` blocks so the marker can sit on the last. */
function withCacheControl(message: BaseMessage, marker: CacheControl): BaseMessage {
  const blocks: Block[] = blocksOf(message.content).map((block) => ({ ...block }));
  if (message.type === 'ai') {
    const listed = new Set(blocks.filter((block) => block.type === 'tool_use').map((block) => block.id));
    for (const call of toolCallsOf(message))
      if (!listed.has(call.id)) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.args });
  }
  const target = blocks.findLastIndex((block) => block.type !== 'thinking' && block.type !== 'redacted_thinking');
  if (target === -1) return message;
  blocks[target] = { ...blocks[target], cache_control: { ...marker } };
  return copyWithContent(message, blocks);
}

function copyWithContent(message: BaseMessage, content: Block[]): BaseMessage {
  const common = { content: content as never, ...(message.id === undefined ? {} : { id: message.id }) };
  const name = message.name === undefined ? {} : { name: message.name };
  switch (message.type) {
    case 'system':
      return new SystemMessage({ ...common, ...name });
    case 'ai':
      return new AIMessage({
        ...common,
        ...name,
        tool_calls: toolCallsOf(message).map((call) => ({ ...call, type: 'tool_call' as const })),
        additional_kwargs: message.additional_kwargs,
      });
    case 'tool': {
      const tool = message as ToolMessage;
      return new ToolMessage({
        ...common,
        ...name,
        tool_call_id: tool.tool_call_id,
        ...(tool.status === undefined ? {} : { status: tool.status }),
      });
    }
    default:
      return new HumanMessage({ ...common, ...name });
  }
}

/** Text-only content as one string (what every chat model integration accepts); other content as blocks. */
function plainWhenText(blocks: Block[]): string | Block[] {
  return blocks.every((block) => block.type === 'text') ? blocks.map((block) => String(block.text)).join('\n') : blocks;
}

/** The head system messages as one `SystemMessage` (the agent sends it before the messages). */
function systemOf(messages: BaseMessage[]): SystemMessage | undefined {
  if (messages.length === 0) return undefined;
  if (messages.length === 1) return messages[0] as SystemMessage;
  return new SystemMessage({ content: messages.flatMap((message) => blocksOf(message.content)) as never });
}

function textOf(parts: readonly (Part | { type: string; text?: string })[]): string {
  return parts.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : '')).join('\n');
}

function imageUrl(source: { kind: 'base64'; mediaType: string; data: string } | { kind: 'url'; url: string }): string {
  return source.kind === 'url' ? source.url : `data:${source.mediaType};base64,${source.data}`;
}

function asArgs(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : { input };
}
