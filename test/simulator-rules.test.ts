import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator, type SimulatorOptions } from '@ctxhost/simulator';

// Every rule the simulator enforces, through the real SDK, streaming and not.
type ApiError = InstanceType<typeof Anthropic.APIError>;
type Params = Anthropic.MessageCreateParamsNonStreaming;

let simulator: Simulator | undefined;
afterEach(async () => {
  await simulator?.close();
  simulator = undefined;
});

async function send(
  body: object,
  stream: boolean,
  options: SimulatorOptions = {},
): Promise<{ error: ApiError; sim: Simulator }> {
  simulator = await startSimulator(options);
  const client = new Anthropic({ apiKey: 'test', baseURL: simulator.url, maxRetries: 0 });
  const params = { ...body, ...(stream ? { stream: true } : {}) } as Params;
  try {
    const answer = await client.messages.create(params);
    if (stream) for await (const _event of answer as unknown as AsyncIterable<unknown>) void _event;
  } catch (error) {
    if (error instanceof Anthropic.APIError) return { error, sim: simulator };
    throw error;
  }
  throw new Error('expected the request to be rejected');
}

const user = (content: unknown) => ({ role: 'user', content });
const assistant = (content: unknown) => ({ role: 'assistant', content });
const call = (id: string) => ({ type: 'tool_use', id, name: 'ls', input: {} });
const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'ok' });
const body = (messages: unknown[], extra: object = {}) => ({
  model: 'claude-sonnet-4-6',
  max_tokens: 100,
  messages,
  ...extra,
});
const breakpoint = (n: number) => ({ type: 'text', text: `block ${n}`, cache_control: { type: 'ephemeral' } });

const SHAPE_RULES: [string, object, string][] = [
  [
    'an orphan tool_result',
    body([user('go'), assistant('ok'), user('more'), assistant('sure'), user([result('toolu_x')])]),
    'messages.4.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_x. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
  ],
  [
    'an unanswered tool_use',
    body([user('go'), assistant([call('toolu_y')]), user('next')]),
    'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_y. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
  ],
  [
    'empty content',
    body([user('go'), assistant([]), user('x')]),
    'messages.1: all messages must have non-empty content except for the optional final assistant message',
  ],
  [
    'an empty text block',
    body([
      user([
        { type: 'text', text: 'a' },
        { type: 'text', text: '' },
      ]),
    ]),
    'messages.0.content.1.text: text content blocks must be non-empty',
  ],
  [
    'five cache_control blocks',
    body([user([1, 2, 3, 4, 5].map(breakpoint))]),
    'A maximum of 4 blocks with cache_control may be provided. Found 5.',
  ],
  [
    'an unknown content type',
    body([user([{ type: 'video', url: 'x' }])]),
    "messages.0.content.0.type: Input tag 'video' found using 'type' does not match any of the expected tags: 'text', 'image', 'document', 'tool_result', 'search_result'",
  ],
  ['a first message from the assistant', body([assistant('hi')]), 'messages: first message must use the "user" role'],
  ['no messages', body([]), 'messages: at least one message is required'],
];

const FIELD_RULES: [string, object, string][] = [
  ['a missing model', { max_tokens: 10, messages: [user('x')] }, 'model: Field required'],
  ['a missing max_tokens', { model: 'claude-sonnet-4-6', messages: [user('x')] }, 'max_tokens: Field required'],
  ['a zero max_tokens', body([user('x')], { max_tokens: 0 }), 'max_tokens: Input should be greater than or equal to 1'],
];

describe.each([false, true])('simulator rules through the SDK (stream: %s)', (stream) => {
  it.each(SHAPE_RULES)(
    'rejects %s with the real text and marks it a shape rejection',
    async (_name, request, message) => {
      const { error, sim } = await send(request, stream);
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      expect(error.error).toEqual({
        type: 'error',
        error: { type: 'invalid_request_error', message },
        request_id: error.requestID,
      });
      expect(sim.requests.at(-1)).toMatchObject({ status: 400, rejectedForShape: true, error: message, stream });
    },
  );

  it.each(FIELD_RULES)('rejects %s', async (_name, request, message) => {
    const { error, sim } = await send(request, stream);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error.error).toMatchObject({ error: { type: 'invalid_request_error', message } });
    expect(sim.requests.at(-1)?.rejectedForShape).toBe(false);
  });

  it('answers a prompt over the window with prompt is too long, N and M exact', async () => {
    const request = body([user('word '.repeat(200))]);
    simulator = await startSimulator({ contextLimit: 50 });
    const client = new Anthropic({ apiKey: 'test', baseURL: simulator.url, maxRetries: 0 });
    const { input_tokens: tokens } = await client.messages.countTokens({
      model: 'claude-sonnet-4-6',
      messages: [{ role: 'user', content: 'word '.repeat(200) }],
    });
    await simulator.close();
    const { error } = await send(request, stream, { contextLimit: 50 });
    expect(error.status).toBe(400);
    expect(error.error).toMatchObject({
      error: { type: 'invalid_request_error', message: `prompt is too long: ${tokens} tokens > 50 maximum` },
    });
  });

  it('answers input + max_tokens over the window with the second variant, for the model configured so', async () => {
    const request = body([user('a short prompt')], { model: 'claude-old', max_tokens: 5000 });
    const { error } = await send(request, stream, {
      contextLimit: 1000,
      models: { 'claude-old': { overflowStyle: 'input_plus_max_tokens' } },
    });
    expect(error.error).toMatchObject({
      error: {
        type: 'invalid_request_error',
        message: expect.stringMatching(
          /^input length and `max_tokens` exceed context limit: \d+ \+ 5000 > 1000, decrease input length or `max_tokens` and try again$/,
        ),
      },
    });
  });

  it("answers a prompt over the window in OpenAI's words where a model is set so", async () => {
    const { error } = await send(body([user('word '.repeat(200))]), stream, {
      contextLimit: 50,
      overflowStyle: 'openai_text',
    });
    expect(error.status).toBe(400);
    expect(error.error).toMatchObject({
      error: {
        type: 'invalid_request_error',
        message: expect.stringMatching(
          /^This model's maximum context length is 50 tokens\. However, your messages resulted in \d+ tokens\. Please reduce the length of the messages\.$/,
        ),
      },
    });
  });

  it('answers a body over the byte limit with 413 request_too_large', async () => {
    const { error, sim } = await send(body([user('x'.repeat(5000))]), stream, { maxBodyBytes: 2000 });
    expect(error.status).toBe(413);
    expect(error.error).toMatchObject({
      type: 'error',
      error: { type: 'request_too_large' },
      request_id: error.requestID,
    });
    expect(sim.requests.at(-1)?.body).toBeUndefined();
  });
});

describe('simulator rules: what passes', () => {
  it('lets the same model pass input + max_tokens over the window when its style is prompt_too_long', async () => {
    simulator = await startSimulator({ contextLimit: 1000 });
    const client = new Anthropic({ apiKey: 'test', baseURL: simulator.url, maxRetries: 0 });
    await expect(
      client.messages.create(body([user('a short prompt')], { max_tokens: 5000 }) as Params),
    ).resolves.toMatchObject({ type: 'message' });
  });

  it('stops with model_context_window_exceeded, streaming and not, where a model does that', async () => {
    simulator = await startSimulator({ models: { 'claude-new': { contextLimit: 50, overflowStyle: 'stop_reason' } } });
    const client = new Anthropic({ apiKey: 'test', baseURL: simulator.url, maxRetries: 0 });
    const request = body([user('word '.repeat(200))], { model: 'claude-new' }) as Params;
    expect((await client.messages.create(request)).stop_reason).toBe('model_context_window_exceeded');
    expect((await client.messages.stream(request).finalMessage()).stop_reason).toBe('model_context_window_exceeded');
  });
});
