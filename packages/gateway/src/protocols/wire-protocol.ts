import type { ServerResponse } from 'node:http';
import type { JsonValue, Message, PromptOriginals, ToolDefinition, Usage } from '@ctxhost/core';
import type { OpeningEvent } from '../stream-opening.js';
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
  /**
   * What an event at the opening of a streamed reply says (`wait`: an opening such as `message_start`;
   * `error` or `window-stop`: an overflow in a 200, recovered while nothing was relayed). Without it a
   * stream is relayed as it opens.
   */
  openingEvent?(name: string, data: unknown): OpeningEvent;
  /** How its replies carry tool calls: a protocol without it is never offered `ctxhost_original`. */
  readonly toolRounds?: ToolRounds;
}

/** One tool call in a reply. */
export interface ReplyToolCall {
  id: string;
  name: string;
  input: JsonValue;
}

/** The gateway's answer to one tool call. */
export interface ToolCallAnswer {
  callId: string;
  output: string;
  isError?: boolean;
}

/**
 * Tool rounds the gateway runs itself: it answers its own tool's calls and asks the upstream again, so
 * the client sees one reply. `continueWith` and `callsOf` work on complete replies; `relayStream` does the
 * same inside a stream, passing every event of the answer through as it comes.
 */
export interface ToolRounds {
  callsOf(reply: unknown): ReplyToolCall[];
  /** The request continued: the reply as the assistant's turn, then one result for each of its calls. */
  continueWith(body: JsonObject, reply: unknown, answers: readonly ToolCallAnswer[]): JsonObject;
  /** The final reply as the client sees it: what earlier rounds said before calling `toolName`, then the final reply's own content. */
  joinRounds(earlier: readonly unknown[], final: unknown, toolName: string): unknown;
  relayStream(first: Response, response: ServerResponse, options: StreamRoundOptions): Promise<void>;
}

export interface StreamRoundOptions {
  /** The tool the gateway answers; its calls never reach the client. */
  toolName: string;
  /** How many times the upstream is asked again at most (then the held calls are relayed). */
  maxRounds: number;
  /** The next round for a reply (assembled from the stream) whose calls include the gateway's: undefined ends the reply here. */
  next(reply: unknown): Promise<Response | undefined>;
  /** Each streamed event's data that carries usage. */
  onUsageEvent(data: unknown): void;
}
