import type Anthropic from '@anthropic-ai/sdk';
import {
  createPromptRenderer,
  nativeCompactionOf,
  toAnthropic,
  type CacheControl,
  type Message,
  type PromptOriginals,
  type PromptRenderer,
} from '@ctxhost/core';
import type { AnthropicPromptItem } from './anthropic-prompt.js';

type Param = Anthropic.MessageParam;
type Block = Anthropic.ContentBlockParam;
type Originals = PromptOriginals<AnthropicPromptItem, unknown>;

/** Per view (its originals): the next call renders only what is new or changed. */
const renderers = new WeakMap<Originals, PromptRenderer<Param>>();

/**
 * The projection's messages after its leading system messages, as Messages API params: a message the
 * hooks left as the caller sent it is the caller's own param (with the projection's cache breakpoints
 * when they moved), anything else is written by core's Anthropic adapter. Adjacent user turns both
 * written here are merged, as the adapter writes a whole projection (a caller's own turns stay as sent).
 */
export function renderMessages(
  messages: readonly Message[],
  head: number,
  originals: Originals,
): { params: Param[]; sendsCompaction: boolean } {
  let renderer = renderers.get(originals);
  if (renderer === undefined) {
    renderer = createPromptRenderer<Param>({
      render: (message) => renderOne(message, originals),
      tally: (message) => (holdsCompaction(message) ? 1 : 0),
    });
    renderers.set(originals, renderer);
  }
  const rendered = renderer.render(messages, head);
  return { params: mergeWritten(rendered.items), sendsCompaction: rendered.tally > 0 };
}

function holdsCompaction(message: Message): boolean {
  return message.parts.some((part) => nativeCompactionOf(part)?.vendor === 'anthropic');
}

function renderOne(message: Message, originals: Originals): readonly Param[] {
  const source = originals.message(message.id);
  if (source !== undefined && !('system' in source)) {
    if (originals.sameMessage(message) !== undefined) return [withBreakpoints(source, message)];
    if (message.parts.every((part) => originals.unchangedPart(part) !== undefined))
      return [withBreakpoints(source, message)];
  }
  const params = toAnthropic([message]).messages as Param[];
  for (const param of params) written.add(param);
  return params;
}

/** Params written here (not the caller's): adjacent user turns of these are one turn, as core's adapter writes them. */
const written = new WeakSet<Param>();

/** The caller's param with each block's `cache_control` as the projection's part has it (the same object when nothing moved). */
function withBreakpoints(param: Param, message: Message): Param {
  const blocks: readonly Block[] =
    typeof param.content === 'string' ? [{ type: 'text', text: param.content }] : param.content;
  if (blocks.length !== message.parts.length) return param;
  const moved = message.parts.some(
    (part, index) => !sameBreakpoint(part.cacheControl, (blocks[index] as { cache_control?: unknown }).cache_control),
  );
  if (!moved) return param;
  return {
    ...param,
    content: blocks.map((block, index) => {
      const marker = message.parts[index]!.cacheControl;
      const { cache_control: _old, ...rest } = block as Block & { cache_control?: unknown };
      return (marker === undefined ? rest : { ...rest, cache_control: marker }) as Block;
    }),
  } as Param;
}

function sameBreakpoint(marker: CacheControl | undefined, block: unknown): boolean {
  if (marker === undefined) return block === undefined || block === null;
  return JSON.stringify(marker) === JSON.stringify(block);
}

function mergeWritten(params: Param[]): Param[] {
  const out: Param[] = [];
  for (const param of params) {
    const previous = out.at(-1);
    if (previous?.role === 'user' && param.role === 'user' && written.has(previous) && written.has(param)) {
      const merged: Param = { role: 'user', content: [...blocksOf(previous), ...blocksOf(param)] };
      written.add(merged);
      out[out.length - 1] = merged;
    } else out.push(param);
  }
  return out;
}

function blocksOf(param: Param): Block[] {
  return typeof param.content === 'string' ? [{ type: 'text', text: param.content }] : [...param.content];
}
