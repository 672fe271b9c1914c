import { describe, expect, it } from 'vitest';
import { providerErrorFromOpencode, type OpencodeError } from './provider-error-from-opencode.js';

const body = (message: string) => JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message } });

describe('providerErrorFromOpencode', () => {
  it.each<[string, OpencodeError, Record<string, unknown>]>([
    [
      'opencode ContextOverflowError with the API text',
      {
        name: 'ContextOverflowError',
        data: {
          message: 'prompt is too long: 250000 tokens > 200000 maximum',
          responseBody: body('prompt is too long: 250000 tokens > 200000 maximum'),
        },
      },
      { kind: 'context_overflow', currentTokens: 250_000, maxTokens: 200_000 },
    ],
    [
      'ContextOverflowError without numbers',
      { name: 'ContextOverflowError', data: { message: 'Input exceeds context window of this model' } },
      { kind: 'context_overflow' },
    ],
    [
      'thousands separators',
      {
        name: 'APIError',
        data: {
          message: 'prompt is too long: 1,234,567 tokens > 1,000,000 maximum',
          statusCode: 400,
          isRetryable: false,
        },
      },
      { kind: 'context_overflow', currentTokens: 1_234_567, maxTokens: 1_000_000, status: 400 },
    ],
    [
      'input plus max_tokens',
      {
        name: 'APIError',
        data: {
          message:
            'input length and `max_tokens` exceed context limit: 190000 + 32000 > 200000, decrease input length or `max_tokens` and try again',
          statusCode: 400,
        },
      },
      { kind: 'output_budget_overflow', currentTokens: 190_000, maxTokens: 200_000 },
    ],
    [
      'empty content with its index',
      {
        name: 'APIError',
        data: {
          message:
            'messages.3: all messages must have non-empty content except for the optional final assistant message',
          statusCode: 400,
        },
      },
      { kind: 'empty_content', messageIndex: 3 },
    ],
    [
      '413',
      { name: 'APIError', data: { message: 'Request exceeds the maximum allowed number of bytes.', statusCode: 413 } },
      { kind: 'request_too_large' },
    ],
    [
      '429 is not an overflow even when counted in tokens',
      {
        name: 'APIError',
        data: { message: 'Number of request tokens has exceeded your per-minute rate limit', statusCode: 429 },
      },
      { kind: 'rate_limited' },
    ],
    ['529', { name: 'APIError', data: { message: 'Overloaded', statusCode: 529 } }, { kind: 'overloaded' }],
    [
      'auth',
      { name: 'ProviderAuthError', data: { providerID: 'anthropic', message: 'invalid x-api-key' } },
      { kind: 'auth' },
    ],
    [
      'other 400',
      { name: 'APIError', data: { message: 'max_tokens: Field required', statusCode: 400 } },
      { kind: 'invalid_request' },
    ],
    ['aborted', { name: 'MessageAbortedError', data: { message: 'The operation was aborted.' } }, { kind: 'server' }],
  ])('%s', (_name, error, expected) => {
    const normalised = providerErrorFromOpencode(error);
    expect(normalised).toMatchObject(expected);
    expect(normalised.cause).toBe(error);
    expect(normalised.message.length).toBeGreaterThan(0);
  });
});
