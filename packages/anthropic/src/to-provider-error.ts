import Anthropic from '@anthropic-ai/sdk';
import { isProviderError, retryAfterMs, type ProviderError, type ProviderErrorKind } from '@ctxhost/core';

const BY_TYPE: Record<string, ProviderErrorKind> = {
  rate_limit_error: 'rate_limited',
  overloaded_error: 'overloaded',
  authentication_error: 'auth',
  permission_error: 'auth',
  billing_error: 'auth',
  request_too_large: 'request_too_large',
  api_error: 'server',
  not_found_error: 'invalid_request',
};

const BY_STATUS: Record<number, ProviderErrorKind> = {
  401: 'auth',
  402: 'auth',
  403: 'auth',
  404: 'invalid_request',
  413: 'request_too_large',
  429: 'rate_limited',
  529: 'overloaded',
};

interface Parsed {
  status?: number;
  type?: string;
  message: string;
  requestId?: string;
  headers?: { get(name: string): string | null } | Record<string, string>;
}

/**
 * Normalises whatever the SDK (or a gateway, or Bedrock) threw into a
 * ProviderError. Structure first (status, error type), then the text, with
 * explicit negatives: a rate limit counted in tokens is a rate limit, a
 * `max_tokens` above the model's maximum is not an overflow.
 */
export function toProviderError(error: unknown): ProviderError {
  if (isProviderError(error)) return error;
  const parsed = parse(error);
  const kind = classify(parsed, error);
  const numbers =
    kind === 'context_overflow' || kind === 'output_budget_overflow' ? overflowNumbers(parsed.message) : {};
  const index = /messages\.(\d+)/.exec(parsed.message);
  const retryAfterMs = retryAfter(parsed.headers);
  return {
    kind,
    message: parsed.message,
    provider: /ValidationException|bedrock/i.test(parsed.message) ? 'bedrock' : 'anthropic',
    cause: error,
    ...(parsed.status === undefined ? {} : { status: parsed.status }),
    ...(parsed.requestId === undefined ? {} : { requestId: parsed.requestId }),
    ...numbers,
    ...(index === null || !['empty_content', 'invalid_tool_pairing'].includes(kind)
      ? {}
      : { messageIndex: Number(index[1]) }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}

function classify(parsed: Parsed, raw: unknown): ProviderErrorKind {
  const text = parsed.message;
  if (
    raw instanceof Anthropic.APIConnectionError ||
    (/ECONNRESET|ECONNREFUSED|socket hang up|fetch failed|network|terminated|Connection error/i.test(text) &&
      parsed.status === undefined &&
      parsed.type === undefined)
  )
    return 'network';
  const typed = parsed.type === undefined ? undefined : BY_TYPE[parsed.type];
  if (typed !== undefined) return typed;
  const byStatus = parsed.status === undefined ? undefined : BY_STATUS[parsed.status];
  if (byStatus !== undefined) return byStatus;
  if (
    /prompt is too long|Input is too long for requested model|context window|context_length_exceeded|maximum context length/i.test(
      text,
    ) &&
    !/rate limit|per minute/i.test(text)
  ) {
    return /input length and `?max_tokens`? exceed context limit/i.test(text)
      ? 'output_budget_overflow'
      : 'context_overflow';
  }
  if (/input length and `?max_tokens`? exceed context limit/i.test(text)) return 'output_budget_overflow';
  if (/non-empty content|text content blocks must be non-empty/i.test(text)) return 'empty_content';
  if (/tool_use_id|`tool_use` ids were found|tool_result/i.test(text)) return 'invalid_tool_pairing';
  if (parsed.status !== undefined && parsed.status >= 500) return 'server';
  if (parsed.status === 400 || parsed.type === 'invalid_request_error') return 'invalid_request';
  return parsed.status === undefined ? 'server' : 'invalid_request';
}

function overflowNumbers(text: string): { currentTokens?: number; maxTokens?: number } {
  const number = (value: string | undefined) => (value === undefined ? undefined : Number(value.replace(/,/g, '')));
  const tooLong = /prompt is too long: ([\d,]+) tokens > ([\d,]+) maximum/i.exec(text);
  if (tooLong) return { currentTokens: number(tooLong[1])!, maxTokens: number(tooLong[2])! };
  const sum = /exceed context limit: ([\d,]+) \+ ([\d,]+) > ([\d,]+)/i.exec(text);
  if (sum) return { currentTokens: number(sum[1])!, maxTokens: number(sum[3])! };
  return {};
}

function parse(error: unknown): Parsed {
  if (error instanceof Anthropic.APIError) {
    const body = bodyOf(error.error);
    const { status, headers } = error as { status?: number; headers?: Parsed['headers'] };
    return {
      message: body?.message ?? error.message,
      ...(status === undefined ? {} : { status }),
      ...(body?.type === undefined ? {} : { type: body.type }),
      ...((error.requestID ?? body?.requestId) ? { requestId: (error.requestID ?? body?.requestId)! } : {}),
      ...(headers === undefined ? {} : { headers }),
    };
  }
  const body = bodyOf(typeof error === 'string' ? (tryJson(error) ?? error) : error);
  if (body !== undefined)
    return {
      message: body.message,
      ...(body.type === undefined ? {} : { type: body.type }),
      ...(body.requestId === undefined ? {} : { requestId: body.requestId }),
      ...(body.status === undefined ? {} : { status: body.status }),
    };
  if (error instanceof Error) return { message: error.message };
  return { message: typeof error === 'string' ? error : (JSON.stringify(error) ?? String(error)) };
}

/** `{ type: 'error', error: { type, message }, request_id }`, or `{ error: { type, message } }`, or `{ message }`. */
function bodyOf(value: unknown): { type?: string; message: string; requestId?: string; status?: number } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const inner =
    typeof record['error'] === 'object' && record['error'] !== null
      ? (record['error'] as Record<string, unknown>)
      : undefined;
  const message = inner?.['message'] ?? record['message'];
  if (typeof message !== 'string') return undefined;
  const type = inner?.['type'] ?? (record['type'] !== 'error' ? record['type'] : undefined);
  return {
    message,
    ...(typeof type === 'string' ? { type } : {}),
    ...(typeof record['request_id'] === 'string' ? { requestId: record['request_id'] } : {}),
    ...(typeof record['status'] === 'number' ? { status: record['status'] } : {}),
  };
}

function retryAfter(headers: Parsed['headers']): number | undefined {
  if (headers === undefined) return undefined;
  return retryAfterMs((name) =>
    'get' in headers && typeof headers.get === 'function'
      ? headers.get(name)
      : (headers as Record<string, string>)[name],
  );
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
