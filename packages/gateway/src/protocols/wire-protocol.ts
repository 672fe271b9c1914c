import type { Message, PromptOriginals, ToolDefinition, Usage } from '@ctxhost/core';
import type { PromptItem } from './prompt-item.js';

export type ProtocolName = 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini';

/** A request body as JSON: the gateway edits only the keys a protocol projects, never the rest. */
export type JsonObject = Record<string, unknown>;

/** What a route says before the body is read (Gemini puts the model and streaming in the path). */
export interface RouteMatch {
  model?: string;
  stream?: boolean;
}

/** A request read for the stateless path. */
export interface ReadRequest {
  model: string;
  stream: boolean;
  /** The system prompt first (when there is one), then one item per message. */
  prompt: PromptItem[];
  maxOutputTokens: number;
  tools: ToolDefinition[];
  /** The request's system and developer items between messages (Chat Completions, Responses), kept in place. */
  pinned: { index: number; raw: unknown }[];
}

/** One protocol's mapping: which routes, how to read a request, how to write a projection back, usage. */
export interface WireProtocol {
  readonly name: ProtocolName;
  match(method: string, path: string): RouteMatch | undefined;
  /** Throws on a body it cannot read (the request then goes out untouched). */
  read(body: JsonObject, route: RouteMatch): ReadRequest;
  /** A copy of `body` whose messages are `messages` (unchanged ones as the caller's own items); every other key as it came. */
  write(
    body: JsonObject,
    read: ReadRequest,
    messages: readonly Message[],
    originals: PromptOriginals<PromptItem, unknown>,
  ): JsonObject;
  /** A copy of `body` that also offers `tool` (the caller's tools first, untouched). */
  offerTool(body: JsonObject, tool: ToolDefinition): JsonObject;
  /** The provider's usage in a complete JSON reply, or in one streamed event's data. */
  usageOf(reply: unknown): Usage | undefined;
  /** The gateway's own refusal (body too large, too busy) in the provider's error shape. */
  errorBody(status: number, message: string): string;
}
