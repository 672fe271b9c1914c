import { createCacheMarker, MAX_CACHE_BREAKPOINTS, type CacheTtl } from './cache-marker.js';
import type { CacheableRequest, WireCacheControl, WireContentBlock, WireMessage } from './cacheable-request.js';

export interface ApplyCacheControlOptions {
  /** Cache lifetime: `'5m'` (default) or `'1h'`. */
  ttl?: CacheTtl;
  /**
   * True when the request goes to Anthropic's own API. Only then do OpenAI-format
   * `role: 'tool'` messages get a message-level marker (gateways drop it).
   */
  native?: boolean;
}

/** How many messages after the system prompt carry a breakpoint (the "3" of `system_and_3`). */
export const ROLLING_BREAKPOINTS = 3;

const THINKING_BLOCK_TYPES = new Set(['thinking', 'redacted_thinking']);

/**
 * Hermes' `system_and_3` strategy: one breakpoint on the system prompt and one
 * on each of the last three non-system messages, at most four in all. Returns
 * a deep copy; the input is never changed. Markers already in the request
 * (on tools, the system prompt or messages) count against the limit of four,
 * and a target that already carries one is not marked again.
 */
export function applyCacheControl<Request extends CacheableRequest>(
  request: Request,
  options: ApplyCacheControlOptions = {},
): Request {
  const marker = createCacheMarker(options.ttl ?? '5m');
  const copy = structuredClone(request);
  let budget = MAX_CACHE_BREAKPOINTS - countMarkers(copy);
  for (const target of breakpointTargets(copy, options.native ?? false)) {
    if (budget <= 0) break;
    if (target.marked()) continue;
    target.mark({ ...marker });
    budget -= 1;
  }
  return copy;
}

interface BreakpointTarget {
  marked(): boolean;
  mark(marker: WireCacheControl): void;
}

/** Targets in priority order: system prompt, then the last, second-to-last and third-to-last non-system messages. */
function breakpointTargets(request: CacheableRequest, native: boolean): BreakpointTarget[] {
  const targets: BreakpointTarget[] = [];
  const head = request.messages[0];
  if (hasSystemParam(request)) targets.push(systemParamTarget(request));
  else if (head?.role === 'system') targets.push(messageTarget(head, true));
  const conversation = request.messages.filter((message) => message.role !== 'system');
  // Without a system prompt, the first message (the task, the longest-lived prefix) takes its breakpoint: four either way.
  const first = conversation[0];
  if (targets.length === 0 && first !== undefined && conversation.length > ROLLING_BREAKPOINTS)
    targets.push(messageTarget(first, native));
  for (const message of conversation.slice(-ROLLING_BREAKPOINTS).reverse())
    targets.push(messageTarget(message, native));
  return targets;
}

function hasSystemParam(request: CacheableRequest): boolean {
  const system = request.system;
  return typeof system === 'string' ? system.length > 0 : Array.isArray(system) && system.length > 0;
}

function systemParamTarget(request: CacheableRequest): BreakpointTarget {
  return {
    marked: () => Array.isArray(request.system) && request.system.some((block) => block.cache_control !== undefined),
    mark(marker) {
      const system = request.system;
      if (typeof system === 'string') request.system = [{ type: 'text', text: system, cache_control: marker }];
      else if (Array.isArray(system)) {
        const block = system[lastMarkableIndex(system)];
        if (block !== undefined) block.cache_control = marker;
      }
    },
  };
}

function messageTarget(message: WireMessage, native: boolean): BreakpointTarget {
  return { marked: () => messageHasMarker(message), mark: (marker) => markMessage(message, marker, native) };
}

/** Where the marker goes, by content type (Hermes's prompt-caching table). */
function markMessage(message: WireMessage, marker: WireCacheControl, native: boolean): void {
  const content = message.content;
  if (message.role === 'tool') {
    if (native) message.cache_control = marker;
    return;
  }
  if (content === undefined || content === null || content === '' || (Array.isArray(content) && content.length === 0)) {
    message.cache_control = marker;
  } else if (typeof content === 'string') {
    message.content = [{ type: 'text', text: content, cache_control: marker }];
  } else {
    const block = content[lastMarkableIndex(content)];
    if (block === undefined) message.cache_control = marker;
    else block.cache_control = marker;
  }
}

/**
 * The last block that may carry a marker, or -1. Thinking blocks cannot carry
 * one, so the marker goes on the block before them (a list of thinking blocks
 * only is marked on the message, like empty content).
 */
function lastMarkableIndex(blocks: readonly WireContentBlock[]): number {
  for (let index = blocks.length - 1; index >= 0; index -= 1) {
    if (!THINKING_BLOCK_TYPES.has((blocks[index] as WireContentBlock).type)) return index;
  }
  return -1;
}

function messageHasMarker(message: WireMessage): boolean {
  if (message.cache_control !== undefined) return true;
  return Array.isArray(message.content) && message.content.some((block) => block.cache_control !== undefined);
}

/** Every `cache_control` already in the request: tools, system blocks, messages and their blocks. */
export function countMarkers(request: CacheableRequest): number {
  let count = 0;
  for (const tool of request.tools ?? []) if (tool.cache_control !== undefined) count += 1;
  if (Array.isArray(request.system))
    count += request.system.filter((block) => block.cache_control !== undefined).length;
  for (const message of request.messages) {
    if (message.cache_control !== undefined) count += 1;
    if (Array.isArray(message.content))
      count += message.content.filter((block) => block.cache_control !== undefined).length;
  }
  return count;
}
