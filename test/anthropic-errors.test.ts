import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toProviderError } from '@ctxhost/anthropic';
import { startSimulator, type Simulator } from '@ctxhost/simulator';

/** Real error bodies and texts (docs/api-facts.md, public reports), and what they must normalise to. */
const SAMPLES: [string, unknown, Record<string, unknown>][] = [
  [
    'prompt too long (body)',
    {
      type: 'error',
      error: { type: 'invalid_request_error', message: 'prompt is too long: 212345 tokens > 200000 maximum' },
      request_id: 'req_1',
    },
    { kind: 'context_overflow', currentTokens: 212345, maxTokens: 200000, requestId: 'req_1' },
  ],
  [
    'prompt too long, 199999 maximum',
    'prompt is too long: 200001 tokens > 199999 maximum',
    { kind: 'context_overflow', currentTokens: 200001, maxTokens: 199999 },
  ],
  [
    'input + max_tokens',
    {
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message:
          'input length and `max_tokens` exceed context limit: 180000 + 32000 > 200000, decrease input length or `max_tokens` and try again',
      },
    },
    { kind: 'output_budget_overflow', currentTokens: 180000, maxTokens: 200000 },
  ],
  [
    'Bedrock-wrapped',
    new Error(
      'ValidationException: The model returned the following errors: prompt is too long: 210000 tokens > 200000 maximum',
    ),
    { kind: 'context_overflow', currentTokens: 210000, provider: 'bedrock' },
  ],
  [
    'Bedrock input too long',
    new Error('ValidationException: Input is too long for requested model.'),
    { kind: 'context_overflow' },
  ],
  [
    'empty content',
    JSON.stringify({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: 'messages.3: all messages must have non-empty content except for the optional final assistant message',
      },
    }),
    { kind: 'empty_content', messageIndex: 3 },
  ],
  [
    'empty text block',
    {
      error: {
        type: 'invalid_request_error',
        message: 'messages.5.content.0.text: text content blocks must be non-empty',
      },
    },
    { kind: 'empty_content', messageIndex: 5 },
  ],
  [
    'orphan tool result',
    {
      error: {
        type: 'invalid_request_error',
        message:
          'messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_1. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
      },
    },
    { kind: 'invalid_tool_pairing', messageIndex: 2 },
  ],
  [
    'rate limit counted in tokens (not an overflow)',
    {
      type: 'error',
      error: {
        type: 'rate_limit_error',
        message: 'This request would exceed the rate limit for your organization of 40,000 input tokens per minute.',
      },
    },
    { kind: 'rate_limited' },
  ],
  [
    'max_tokens above the model maximum (not an overflow)',
    {
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message:
          'max_tokens: 100000 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4-5',
      },
    },
    { kind: 'invalid_request' },
  ],
  [
    'thinking budget (not an overflow)',
    {
      type: 'error',
      error: { type: 'invalid_request_error', message: '`max_tokens` must be greater than `thinking.budget_tokens`' },
    },
    { kind: 'invalid_request' },
  ],
  [
    'request too large',
    {
      type: 'error',
      error: { type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' },
    },
    { kind: 'request_too_large' },
  ],
  ['overloaded', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, { kind: 'overloaded' }],
  ['auth', { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }, { kind: 'auth' }],
];

describe('toProviderError: captured bodies', () => {
  it.each(SAMPLES)('%s', (_name, error, expected) => {
    expect(toProviderError(error)).toMatchObject(expected);
  });
});

describe('toProviderError: every error the simulator produces, through the real SDK', () => {
  let sim: Simulator;
  let client: Anthropic;
  beforeAll(async () => {
    sim = await startSimulator({ contextLimit: 100 });
    client = new Anthropic({ apiKey: 'test', baseURL: sim.url, maxRetries: 0 });
  });
  afterAll(() => sim.close());
  const params = (content = 'hello') => ({
    model: 'claude-sonnet-4-6',
    max_tokens: 10,
    messages: [{ role: 'user' as const, content }],
  });
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected a failure');
      },
      (error: unknown) => toProviderError(error),
    );

  it('overflow, with the numbers', async () => {
    expect(await failure(client.messages.create(params('word '.repeat(500))))).toMatchObject({
      kind: 'context_overflow',
      status: 400,
      maxTokens: 100,
      requestId: expect.stringMatching(/^req_sim_/),
    });
  });
  it.each([
    ['rate_limit' as const, { kind: 'rate_limited', status: 429, retryAfterMs: 1000 }],
    ['overloaded' as const, { kind: 'overloaded', status: 529 }],
    ['server_error' as const, { kind: 'server', status: 500 }],
    ['drop' as const, { kind: 'network' }],
  ])('%s', async (fault, expected) => {
    sim.faults.next(1, fault);
    expect(await failure(client.messages.create(params()))).toMatchObject(expected);
  });
  it('an SSE error after a 200 (no status)', async () => {
    sim.faults.next(1, 'sse_error');
    const error = await failure(client.messages.stream(params()).finalMessage());
    expect(error).toMatchObject({ kind: 'overloaded' });
    expect(error.status).toBeUndefined();
  });
  it('an orphan tool result with its index', async () => {
    const error = await failure(
      client.messages.create({
        ...params(),
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: 'y' },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'z' }] },
        ],
      }),
    );
    expect(error).toMatchObject({ kind: 'invalid_tool_pairing', messageIndex: 2 });
  });
});
