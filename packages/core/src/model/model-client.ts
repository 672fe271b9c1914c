import type { JsonValue, Message } from './message.js';
import type { ProviderError } from './provider-error.js';
import type { Usage } from './usage.js';

/** A tool the model can call. `inputSchema` is a JSON Schema object. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: JsonValue };
}

/**
 * A provider-neutral model request: what the request hooks transform.
 * System prompts are messages with role `system` at the head of `messages`.
 */
export interface ModelRequest {
  sessionId: string;
  model: string;
  messages: readonly Message[];
  tools?: ToolDefinition[];
  maxTokens: number;
  /** Provider options ctxhost passes through (server-side context management, betas, …). */
  providerOptions?: Record<string, JsonValue>;
}

export type StopReason =
  'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'pause_turn' | 'refusal' | 'model_context_window_exceeded';

export interface ModelResponse {
  /** The assistant message, parts with fresh ids. */
  message: Message;
  usage: Usage;
  stopReason: StopReason | string;
  requestId?: string;
}

export interface ModelCallOptions {
  signal?: AbortSignal;
  stream?: boolean;
}

/** The host's view of a model. `@ctxhost/anthropic` implements it over the SDK. */
export interface ModelClient {
  readonly provider: string;
  readonly model: string;
  /** The model's context window in tokens, when known. */
  readonly contextWindow?: number;
  create(request: ModelRequest, options?: ModelCallOptions): Promise<ModelResponse>;
  /** Exact prompt size from the provider (Anthropic `count_tokens`), when supported. */
  countTokens?(request: ModelRequest, options?: ModelCallOptions): Promise<number>;
  /** Normalises whatever `create` threw. */
  toProviderError(error: unknown): ProviderError;
}
