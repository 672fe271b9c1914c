import { replaceEntry, type CacheControl, type Message, type Part } from '@ctxhost/core';
import { ROLLING_BREAKPOINTS } from './apply-cache-control.js';
import { markedParts, type CacheBreakpointCounter } from './cache-breakpoint-counter.js';
import { createCacheMarker, MAX_CACHE_BREAKPOINTS, type CacheTtl } from './cache-marker.js';

export interface ApplyCacheBreakpointsOptions {
  /** Cache lifetime: `'5m'` (default) or `'1h'`. */
  ttl?: CacheTtl;
  /** Counts the breakpoints already in the list incrementally (one per session); default: a full count. */
  counter?: CacheBreakpointCounter;
}

/**
 * `system_and_3` over ctxhost's message model: sets `cacheControl` on one part
 * of the system prompt (the last system message at the head of the list) and
 * of each of the last three non-system messages that can carry one. The
 * marker goes on a message's last part that is not reasoning (thinking blocks
 * cannot be cached explicitly); tool messages are marked like any other,
 * since the Anthropic adapter renders their results as `tool_result` blocks.
 *
 * Parts that already carry `cacheControl` count against the limit of four,
 * and their messages are not marked again. Returns a new list; messages it
 * marks are copied, the others are shared, and the input is never changed.
 */
export function applyCacheBreakpoints(
  messages: readonly Message[],
  options: ApplyCacheBreakpointsOptions = {},
): Message[] {
  const result = [...messages];
  markBreakpoints(
    messages,
    result,
    createCacheMarker(options.ttl ?? '5m'),
    options.counter?.count(messages) ?? countCacheBreakpoints(messages),
  );
  return result;
}

/**
 * Writes the marked copies of `messages`' breakpoint targets into `into` (a list holding the same
 * messages; through `replaceEntry`, so a journaled list notes them) and returns the indexes it wrote. `existing`: breakpoints `messages` already carries.
 */
export function markBreakpoints(
  messages: readonly Message[],
  into: Message[],
  marker: CacheControl,
  existing: number,
): number[] {
  const written: number[] = [];
  let budget = MAX_CACHE_BREAKPOINTS - existing;
  for (const index of targetIndexes(messages)) {
    if (budget <= 0) break;
    const message = messages[index] as Message;
    if (message.parts.some((part) => part.cacheControl !== undefined)) continue;
    replaceEntry(into, index, markMessage(message, marker));
    written.push(index);
    budget -= 1;
  }
  return written;
}

/** The number of parts that carry `cacheControl`. */
export function countCacheBreakpoints(messages: readonly Message[]): number {
  let count = 0;
  for (const message of messages) count += markedParts(message);
  return count;
}

/**
 * Indexes in priority order: the system prompt, then the last, second-to-last
 * and third-to-last markable messages. Without a system prompt the first
 * markable message (the task: the longest-lived prefix) takes its place, or,
 * when it is already one of the last three, a fourth from the end: four
 * breakpoints either way.
 */
function targetIndexes(messages: readonly Message[]): number[] {
  const systemIndex = lastHeadSystemIndex(messages);
  const rolling: number[] = [];
  const wanted = ROLLING_BREAKPOINTS + (systemIndex === -1 ? 1 : 0);
  for (let index = messages.length - 1; index >= 0 && rolling.length < wanted; index -= 1) {
    const message = messages[index] as Message;
    if (message.role !== 'system' && lastMarkablePart(message) !== -1) rolling.push(index);
  }
  if (systemIndex !== -1) return [systemIndex, ...rolling];
  const first = messages.findIndex((message) => message.role !== 'system' && lastMarkablePart(message) !== -1);
  if (first === -1 || rolling.slice(0, ROLLING_BREAKPOINTS).includes(first)) return rolling;
  return [first, ...rolling.slice(0, ROLLING_BREAKPOINTS)];
}

/** The last markable system message of the leading run of system messages, or -1. */
function lastHeadSystemIndex(messages: readonly Message[]): number {
  let found = -1;
  for (let index = 0; index < messages.length && (messages[index] as Message).role === 'system'; index += 1) {
    if (lastMarkablePart(messages[index] as Message) !== -1) found = index;
  }
  return found;
}

function lastMarkablePart(message: Message): number {
  for (let index = message.parts.length - 1; index >= 0; index -= 1) {
    if (isMarkable(message.parts[index] as Part)) return index;
  }
  return -1;
}

function isMarkable(part: Part): boolean {
  if (part.type === 'reasoning') return false;
  return part.type !== 'text' || part.text.length > 0;
}

function markMessage(message: Message, marker: CacheControl): Message {
  const partIndex = lastMarkablePart(message);
  const parts = message.parts.map((part, index) =>
    index === partIndex ? { ...part, cacheControl: { ...marker } } : part,
  );
  return { ...message, parts };
}
