import {
  toAnthropic,
  type AnthropicContentBlock,
  type AnthropicMessageParam,
  type CacheControl,
  type Message,
  type MessagesRequest,
  type Usage,
} from '@ctxhost/core';
import { anthropicToolRounds } from './anthropic-tool-rounds.js';
import type { PromptItem } from './prompt-item.js';
import { numberOf, objectOf, toolDefinitions } from './tool-definitions.js';
import type { JsonObject, WireProtocol } from './wire-protocol.js';
import { mergeAdjacent, promptOf, rebuildItems } from './write-back.js';

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  502: 'api_error',
  503: 'overloaded_error',
};

/** Anthropic's Messages API: `POST /v1/messages`. */
export const anthropicProtocol: WireProtocol = {
  name: 'anthropic',
  match: (method, path) => (method === 'POST' && path.endsWith('/v1/messages') ? {} : undefined),
  read(body) {
    const request = body as MessagesRequest;
    if (!Array.isArray(request.messages)) throw new TypeError('messages: expected a list');
    const turns = {
      request,
      sources: request.messages.map((_, index) => [index]),
      systemSources: [],
    };
    return {
      model: String(request.model),
      stream: request.stream === true,
      ...promptOf(turns, request.messages),
      maxOutputTokens: numberOf(request.max_tokens),
      tools: toolDefinitions(request.tools),
    };
  },
  write(body, read, messages, originals) {
    const written = new Set<AnthropicMessageParam>();
    const write = (message: Message) => {
      const params = toAnthropic([message]).messages;
      for (const param of params) written.add(param);
      return params;
    };
    const items = rebuildItems(read, messages, originals, write, [], withBreakpoints) as AnthropicMessageParam[];
    const system = systemWithBreakpoints(body['system'], messages[0]?.role === 'system' ? messages[0] : undefined);
    return capBreakpoints({
      ...body,
      ...(system === undefined ? {} : { system }),
      messages: mergeAdjacent(items, written, (param) => param.role, mergeTurns),
    });
  },
  offerTool(body, tool) {
    const tools = Array.isArray(body['tools']) ? (body['tools'] as unknown[]) : [];
    return {
      ...body,
      tools: [...tools, { name: tool.name, description: tool.description, input_schema: tool.inputSchema }],
    };
  },
  usageOf(reply) {
    const object = objectOf(reply);
    const usage = objectOf(object?.['usage']) ?? objectOf(objectOf(object?.['message'])?.['usage']);
    return usage === undefined ? undefined : anthropicUsage(usage);
  },
  errorBody(status, message) {
    return JSON.stringify({ type: 'error', error: { type: ERROR_TYPES[status] ?? 'api_error', message } });
  },
  openingEvent(name, data) {
    if (name === 'message_start' || name === 'ping') return 'wait';
    if (name === 'error') return 'error';
    const stop = objectOf(objectOf(data)?.['delta'])?.['stop_reason'];
    return name === 'message_delta' && stop === WINDOW_STOP ? 'window-stop' : 'content';
  },
  toolRounds: anthropicToolRounds,
};

/** Newer models stop at the window with this reason (and no content) instead of failing. */
export const WINDOW_STOP = 'model_context_window_exceeded';

function anthropicUsage(usage: JsonObject): Usage {
  return {
    inputTokens: numberOf(usage['input_tokens']),
    outputTokens: numberOf(usage['output_tokens']),
    cacheCreationInputTokens: numberOf(usage['cache_creation_input_tokens']),
    cacheReadInputTokens: numberOf(usage['cache_read_input_tokens']),
  };
}

/**
 * A message the projection keeps, as the caller sent it but with the projection's
 * cache breakpoints (the prompt-caching hook places them; at most four per request).
 */
function withBreakpoints(message: Message, source: PromptItem): unknown[] {
  const param = source.raw[0] as AnthropicMessageParam;
  const blocks = blocksOf(param);
  const same = message.parts.every((part, index) => sameBreakpoint(part.cacheControl, blocks[index]?.cache_control));
  if (same && (typeof param.content !== 'string' || message.parts.every((part) => part.cacheControl === undefined)))
    return [param];
  return [
    {
      ...param,
      content: blocks.map((block, index) => {
        const breakpoint = message.parts[index]?.cacheControl;
        const { cache_control: _old, ...rest } = block;
        return breakpoint === undefined ? rest : { ...rest, cache_control: breakpoint };
      }),
    },
  ];
}

/** The caller's system prompt with the projection's breakpoints on it (its text is never rewritten). */
function systemWithBreakpoints(system: unknown, projected: Message | undefined): unknown {
  if (projected === undefined || system === undefined) return system;
  const blocks: AnthropicContentBlock[] =
    typeof system === 'string' ? [{ type: 'text', text: system }] : (system as AnthropicContentBlock[]);
  if (!Array.isArray(blocks) || blocks.length !== projected.parts.length) return system;
  const source: PromptItem = {
    kind: 'system',
    turn: { role: 'system', content: blocks },
    raw: [{ role: 'system', content: system }],
    first: -1,
  };
  const [kept] = withBreakpoints(projected, source) as AnthropicMessageParam[];
  return kept?.content;
}

/** The API takes at most four `cache_control` blocks per request. */
const MAX_BREAKPOINTS = 4;

/**
 * The caller's own breakpoints (tools, system) and the projection's may add up to more than the API
 * takes: the tools' and the system's stay, and of the messages' the latest ones (the prefix the next
 * request reads) up to the limit.
 */
function capBreakpoints(body: JsonObject): JsonObject {
  const fixed = countBreakpoints(body['tools']) + countBreakpoints(body['system']);
  const messages = body['messages'] as AnthropicMessageParam[];
  let room = Math.max(0, MAX_BREAKPOINTS - fixed);
  if (fixed + countBreakpoints(messages) <= MAX_BREAKPOINTS) return body;
  const capped = [...messages].reverse().map((param) => {
    if (typeof param.content === 'string') return param;
    return {
      ...param,
      content: [...param.content]
        .reverse()
        .map((block) => {
          if (block.cache_control === undefined || block.cache_control === null) return block;
          if (room > 0) {
            room--;
            return block;
          }
          const { cache_control: _dropped, ...rest } = block;
          return rest;
        })
        .reverse(),
    };
  });
  return { ...body, messages: capped.reverse() };
}

function countBreakpoints(value: unknown): number {
  if (!Array.isArray(value)) return 0;
  let count = 0;
  for (const item of value) {
    const object = item as { cache_control?: unknown; content?: unknown };
    if (object.cache_control !== undefined && object.cache_control !== null) count++;
    if (Array.isArray(object.content)) count += countBreakpoints(object.content);
  }
  return count;
}

function sameBreakpoint(a: CacheControl | undefined, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

function mergeTurns(a: AnthropicMessageParam, b: AnthropicMessageParam): AnthropicMessageParam {
  return { role: a.role, content: [...blocksOf(a), ...blocksOf(b)] };
}

function blocksOf(param: AnthropicMessageParam): AnthropicContentBlock[] {
  return typeof param.content === 'string' ? [{ type: 'text', text: param.content }] : param.content;
}
