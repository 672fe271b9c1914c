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

/** True for a value that already is a normalised ProviderError (not an SDK's Error), so adapters pass it on as it is. */
export function isProviderError(value: unknown): value is ProviderError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ProviderError).kind === 'string' &&
    typeof (value as ProviderError).message === 'string' &&
    !(value instanceof Error)
  );
}

/** The wait a provider asked for, from `retry-after-ms` or `retry-after` (seconds), in milliseconds. */
export function retryAfterMs(header: (name: string) => string | null | undefined): number | undefined {
  const ms = Number(header('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const raw = header('retry-after');
  const seconds = Number(raw);
  return raw !== null && raw !== undefined && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}
