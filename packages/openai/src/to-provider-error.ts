import OpenAI from 'openai';
import {
  isProviderError,
  parseTokenLimitError,
  retryAfterMs,
  type ProviderError,
  type ProviderErrorKind,
} from '@ctxhost/core';

const BY_CODE: Record<string, ProviderErrorKind> = {
  rate_limit_exceeded: 'rate_limited',
  insufficient_quota: 'auth',
  invalid_api_key: 'auth',
  model_not_found: 'invalid_request',
  context_length_exceeded: 'context_overflow',
  string_above_max_length: 'invalid_request',
};

const BY_STATUS: Record<number, ProviderErrorKind> = {
  401: 'auth',
  402: 'auth',
  403: 'auth',
  404: 'invalid_request',
  413: 'request_too_large',
  429: 'rate_limited',
  503: 'overloaded',
  529: 'overloaded',
};

interface Parsed {
  status?: number;
  code?: string;
  type?: string;
  param?: string;
  message: string;
  requestId?: string;
  headers?: { get(name: string): string | null };
}

/**
 * Normalises what the openai SDK threw — from OpenAI, Azure OpenAI, OpenRouter,
 * vLLM, DeepSeek or any OpenAI-compatible server — into a ProviderError. An
 * overflow is found by core's `parseTokenLimitError` (every provider's wording,
 * with the negatives: a TPM rate limit, a `max_tokens` above the model's output
 * cap); the rest by error code, then status, then the tool-pairing texts.
 */
export function toProviderError(error: unknown): ProviderError {
  if (isProviderError(error)) return error;
  const parsed = parse(error);
  const overflow = parsed.status === 429 ? null : parseTokenLimitError(error);
  const kind = overflow !== null ? overflowKind(parsed.message) : classify(parsed, error);
  const index = /messages\.?\[(\d+)\]/.exec(parsed.param ?? '') ?? /messages\.?\[(\d+)\]/.exec(parsed.message);
  const retryAfterMs = retryAfter(parsed.headers);
  return {
    kind,
    message: parsed.message,
    provider: overflow?.provider ?? providerOf(parsed),
    cause: error,
    ...(parsed.status === undefined ? {} : { status: parsed.status }),
    ...(parsed.requestId === undefined ? {} : { requestId: parsed.requestId }),
    ...(overflow?.currentTokens === undefined ? {} : { currentTokens: overflow.currentTokens }),
    ...(overflow?.maxTokens === undefined ? {} : { maxTokens: overflow.maxTokens }),
    ...(index === null || !['empty_content', 'invalid_tool_pairing'].includes(kind)
      ? {}
      : { messageIndex: Number(index[1]) }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}

/** Prompt and completion together over the window is the output budget's fault (lower `max_tokens` or compact). */
function overflowKind(text: string): ProviderErrorKind {
  if (/request entity too large|request_too_large/i.test(text)) return 'request_too_large';
  return /in the completion\)|in the output\)|'max_tokens' or 'max_completion_tokens' is too large/i.test(text)
    ? 'output_budget_overflow'
    : 'context_overflow';
}

function classify(parsed: Parsed, raw: unknown): ProviderErrorKind {
  if (raw instanceof OpenAI.APIConnectionError || raw instanceof OpenAI.APIUserAbortError) return 'network';
  if (
    parsed.status === undefined &&
    /ECONNRESET|ECONNREFUSED|socket hang up|fetch failed|Connection error|terminated/i.test(parsed.message)
  )
    return 'network';
  if (
    /must be a response to a preceed?ing message with 'tool_calls'|did not have response messages|tool_call_id/i.test(
      parsed.message,
    )
  )
    return 'invalid_tool_pairing';
  if (/Invalid value for 'content'|content.*must be non-empty|empty content/i.test(parsed.message))
    return 'empty_content';
  const byCode = parsed.code === undefined ? undefined : BY_CODE[parsed.code];
  if (byCode !== undefined) return byCode;
  const byStatus = parsed.status === undefined ? undefined : BY_STATUS[parsed.status];
  if (byStatus !== undefined) return byStatus;
  if (parsed.status !== undefined && parsed.status >= 500) return 'server';
  if (/overloaded/i.test(parsed.message)) return 'overloaded';
  if (parsed.type === 'invalid_request_error' || parsed.code === 'invalid_value') return 'invalid_request';
  return parsed.status === undefined ? 'server' : 'invalid_request';
}

function parse(error: unknown): Parsed {
  if (error instanceof OpenAI.APIError) {
    const body = (typeof error.error === 'object' && error.error !== null ? error.error : {}) as Record<
      string,
      unknown
    >;
    const message = typeof body['message'] === 'string' ? body['message'] : error.message;
    const code: unknown = error.code;
    const type: unknown = error.type;
    const param: unknown = error.param;
    const status: unknown = error.status;
    const headers: unknown = error.headers;
    return {
      message,
      ...(typeof status === 'number' ? { status } : {}),
      ...(typeof code === 'string' || typeof code === 'number' ? { code: String(code) } : {}),
      ...(typeof type === 'string' ? { type } : {}),
      ...(typeof param === 'string' ? { param } : {}),
      ...(error.requestID ? { requestId: error.requestID } : {}),
      ...(headers instanceof Headers ? { headers } : {}),
    };
  }
  const body = bodyOf(typeof error === 'string' ? (tryJson(error) ?? error) : error);
  if (body !== undefined) return body;
  if (error instanceof Error) return { message: error.message };
  return { message: typeof error === 'string' ? error : (JSON.stringify(error) ?? String(error)) };
}

/** `{ error: { message, type, param, code } }` (OpenAI, Azure, OpenRouter), or vLLM's older flat `{ object: 'error', message, code }`. */
function bodyOf(value: unknown): Parsed | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const inner =
    typeof record['error'] === 'object' && record['error'] !== null
      ? (record['error'] as Record<string, unknown>)
      : record;
  const message = inner['message'];
  if (typeof message !== 'string') return undefined;
  const code = inner['code'];
  const status = typeof record['status'] === 'number' ? record['status'] : typeof code === 'number' ? code : undefined;
  return {
    message,
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof inner['type'] === 'string' ? { type: inner['type'] } : {}),
    ...(typeof inner['param'] === 'string' ? { param: inner['param'] } : {}),
    ...(status === undefined ? {} : { status }),
  };
}

function providerOf(parsed: Parsed): string {
  if (parsed.headers?.get('apim-request-id') || parsed.headers?.get('x-ms-region')) return 'azure';
  if (/openrouter|middle-out/i.test(parsed.message)) return 'openrouter';
  if (parsed.type === 'BadRequestError' || parsed.type === 'NotFoundError') return 'vllm';
  return 'openai';
}

function retryAfter(headers: Parsed['headers']): number | undefined {
  return headers === undefined ? undefined : retryAfterMs((name) => headers.get(name));
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
