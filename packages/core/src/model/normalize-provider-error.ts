import { parseTokenLimitError } from './parse-token-limit-error.js';
import type { ProviderError, ProviderErrorKind } from './provider-error.js';

/** True when the error is one the recovery cascade can act on (an overflow of any provider, or empty content). */
export function isRecoverableOverflow(error: unknown): boolean {
  return parseTokenLimitError(error) !== null;
}

/**
 * Whatever a provider SDK or framework threw (the AI SDK's APICallError, the openai SDK's APIError, …), normalised for `session.error`:
 * overflows through the shared parser (every provider's wording), the rest by
 * HTTP status (`APICallError.statusCode`).
 */
export function normalizeProviderError(error: unknown): ProviderError {
  const message = error instanceof Error ? error.message : String(error);
  const status = statusOf(error);
  const parsed = parseTokenLimitError(error);
  const base = { message, cause: error, ...(status === undefined ? {} : { status }) };
  if (parsed !== null) {
    const kind: ProviderErrorKind =
      parsed.kind === 'request_too_large'
        ? 'request_too_large'
        : parsed.kind === 'non_empty_content'
          ? 'empty_content'
          : 'context_overflow';
    return { ...base, kind, ...pick(parsed) };
  }
  return { ...base, kind: kindOfStatus(status) };
}

function pick(parsed: NonNullable<ReturnType<typeof parseTokenLimitError>>): Partial<ProviderError> {
  return {
    ...(parsed.currentTokens === undefined ? {} : { currentTokens: parsed.currentTokens }),
    ...(parsed.maxTokens === undefined ? {} : { maxTokens: parsed.maxTokens }),
    ...(parsed.messageIndex === undefined ? {} : { messageIndex: parsed.messageIndex }),
    ...(parsed.provider === undefined ? {} : { provider: parsed.provider }),
  };
}

function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const status = (error as { statusCode?: unknown }).statusCode ?? (error as { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}

function kindOfStatus(status: number | undefined): ProviderErrorKind {
  if (status === undefined) return 'network';
  if (status === 429) return 'rate_limited';
  if (status === 529) return 'overloaded';
  if (status === 401 || status === 402 || status === 403) return 'auth';
  if (status === 413) return 'request_too_large';
  if (status >= 500) return 'server';
  return 'invalid_request';
}
