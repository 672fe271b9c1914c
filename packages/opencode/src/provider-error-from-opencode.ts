import type { ProviderError, ProviderErrorKind } from '@ctxhost/core';

/** The error opencode reports on `session.error` and on a failed assistant message. */
export interface OpencodeError {
  name: string;
  data?: { message?: unknown; statusCode?: unknown; responseBody?: unknown; [key: string]: unknown };
}

const PROMPT_TOO_LONG = /prompt is too long:\s*([\d,]+)\s*tokens?\s*>\s*([\d,]+)\s*maximum/i;
const INPUT_PLUS_MAX_TOKENS =
  /input length and `?max_tokens`? exceed context limit:\s*([\d,]+)\s*\+\s*([\d,]+)\s*>\s*([\d,]+)/i;
const EMPTY_CONTENT = /messages\.(\d+).*non-empty content/i;

/**
 * Normalises opencode's error (`ContextOverflowError`, `APIError` with the
 * provider's status and body, …) into ctxhost's ProviderError. Structure first
 * (name, status), then the provider's own text.
 */
export function providerErrorFromOpencode(error: OpencodeError): ProviderError {
  const message = typeof error.data?.message === 'string' ? error.data.message : error.name;
  const status = typeof error.data?.statusCode === 'number' ? error.data.statusCode : undefined;
  const base = { message, provider: 'opencode', cause: error, ...(status === undefined ? {} : { status }) };
  const tooLong = PROMPT_TOO_LONG.exec(message);
  if (tooLong !== null)
    return { ...base, kind: 'context_overflow', currentTokens: toNumber(tooLong[1]), maxTokens: toNumber(tooLong[2]) };
  const withOutput = INPUT_PLUS_MAX_TOKENS.exec(message);
  if (withOutput !== null)
    return {
      ...base,
      kind: 'output_budget_overflow',
      currentTokens: toNumber(withOutput[1]),
      maxTokens: toNumber(withOutput[3]),
    };
  if (error.name === 'ContextOverflowError') return { ...base, kind: 'context_overflow' };
  const empty = EMPTY_CONTENT.exec(message);
  if (empty !== null) return { ...base, kind: 'empty_content', messageIndex: toNumber(empty[1]) };
  return { ...base, kind: kindOfStatus(status, error.name) };
}

function kindOfStatus(status: number | undefined, name: string): ProviderErrorKind {
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limited';
  if (status === 529) return 'overloaded';
  if (status === 401 || status === 403 || name === 'ProviderAuthError') return 'auth';
  if (status !== undefined && status >= 500) return 'server';
  if (status !== undefined && status >= 400) return 'invalid_request';
  return name === 'APIError' ? 'network' : 'server';
}

function toNumber(digits: string | undefined): number | undefined {
  if (digits === undefined) return undefined;
  const value = Number(digits.replaceAll(',', ''));
  return Number.isFinite(value) ? value : undefined;
}
