/**
 * A provider error, normalised so hooks can act on it without knowing the provider.
 * `@ctxhost/anthropic`'s `toProviderError()` produces it; auto-compact consumes it.
 */
export type ProviderErrorKind =
  | 'context_overflow'
  | 'output_budget_overflow'
  | 'request_too_large'
  | 'empty_content'
  | 'invalid_tool_pairing'
  | 'rate_limited'
  | 'overloaded'
  | 'auth'
  | 'invalid_request'
  | 'network'
  | 'server';

export interface ProviderError {
  kind: ProviderErrorKind;
  status?: number;
  message: string;
  requestId?: string;
  currentTokens?: number;
  maxTokens?: number;
  messageIndex?: number;
  retryAfterMs?: number;
  provider?: string;
  /** The error as it was thrown, for logs. */
  cause?: unknown;
}
