import Anthropic from '@anthropic-ai/sdk';

type ApiError = InstanceType<typeof Anthropic.APIError>;
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator, type SimulatorOptions } from '@ctxhost/simulator';

let simulator: Simulator | undefined;
afterEach(async () => {
  await simulator?.close();
  simulator = undefined;
});

async function clientFor(options: SimulatorOptions = {}) {
  simulator = await startSimulator(options);
  return { sim: simulator, client: new Anthropic({ apiKey: 'test', baseURL: simulator.url, maxRetries: 0 }) };
}

type Params = Anthropic.MessageCreateParamsNonStreaming;
const base = (messages: Params['messages'], extra: Partial<Params> = {}): Params => ({ model: 'claude-sonnet-4-5', max_tokens: 100, messages, ...extra });

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Anthropic.APIError) return error;
    throw error;
  }
  throw new Error('expected the request to be rejected');
}

describe('simulator: the Messages API through the real SDK', () => {
  it('answers non-streaming and streaming requests with usage', async () => {
    const { client } = await clientFor();
    const message = await client.messages.create(base([{ role: 'user', content: 'Hello there' }]));
    expect(message.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('Hello there') });
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    const streamed = await client.messages.stream(base([{ role: 'user', content: 'Hello there' }])).finalMessage();
    expect(streamed.content).toEqual(message.content);
    expect(streamed.usage.input_tokens).toBe(message.usage.input_tokens);
  });

  it('counts tokens with its own tokenizer', async () => {
    const { client } = await clientFor();
    const counted = await client.messages.countTokens({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'one two three' }] });
    const message = await client.messages.create(base([{ role: 'user', content: 'one two three' }]));
    expect(counted.input_tokens).toBe(message.usage.input_tokens);
  });

  it('plays scripted turns, tool use included, streaming and not', async () => {
    const { client, sim } = await clientFor();
    const toolTurn = { content: [{ type: 'text', text: 'Checking.' }, { type: 'tool_use', id: 'toolu_1', name: 'ls', input: { path: '.' } }] };
    sim.script(toolTurn, toolTurn);
    const plain = await client.messages.create(base([{ role: 'user', content: 'list' }]));
    expect(plain.stop_reason).toBe('tool_use');
    const streamed = await client.messages.stream(base([{ role: 'user', content: 'list' }])).finalMessage();
    expect(streamed.content).toEqual(plain.content);
  });

  it.each([
    ['prompt_too_long' as const, /^prompt is too long: \d+ tokens > 50 maximum$/],
    ['input_plus_max_tokens' as const, /^input length and `max_tokens` exceed context limit: \d+ \+ 100 > 50, decrease input length or `max_tokens` and try again$/],
  ])('returns the real overflow error (%s)', async (overflowStyle, text) => {
    const { client } = await clientFor({ contextLimit: 50, overflowStyle });
    const error = await rejection(client.messages.create(base([{ role: 'user', content: 'word '.repeat(200) }])));
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error.status).toBe(400);
    expect(error.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringMatching(text) }, request_id: error.requestID });
  });

  it('stops with model_context_window_exceeded where a model does that', async () => {
    const { client } = await clientFor({ models: { 'claude-new': { contextLimit: 50, overflowStyle: 'stop_reason' } } });
    const message = await client.messages.create(base([{ role: 'user', content: 'word '.repeat(200) }], { model: 'claude-new' }));
    expect(message.stop_reason).toBe('model_context_window_exceeded');
  });

  it('returns 413 for a body over the byte limit', async () => {
    const { client } = await clientFor({ maxBodyBytes: 1000 });
    const error = await rejection(client.messages.create(base([{ role: 'user', content: 'x'.repeat(2000) }])));
    expect(error.status).toBe(413);
    expect(error.error).toMatchObject({ error: { type: 'request_too_large' } });
  });

  const call = { role: 'assistant' as const, content: [{ type: 'tool_use' as const, id: 'toolu_a', name: 'ls', input: {} }] };
  it.each([
    ['an orphan tool result', [{ role: 'user', content: 'go' }, { role: 'assistant', content: 'ok' }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'r' }] }], 'messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_x. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.'],
    ['an unanswered tool use', [{ role: 'user', content: 'go' }, call, { role: 'user', content: 'next' }], 'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_a. Each `tool_use` block must have a corresponding `tool_result` block in the next message.'],
    ['empty content', [{ role: 'user', content: 'go' }, { role: 'assistant', content: [] }, { role: 'user', content: 'x' }], 'messages.1: all messages must have non-empty content except for the optional final assistant message'],
    ['an empty text block', [{ role: 'user', content: [{ type: 'text', text: '' }] }], 'messages.0.content.0.text: text content blocks must be non-empty'],
    ['a first message not from the user', [{ role: 'assistant', content: 'hi' }], 'messages: first message must use the "user" role'],
    ['an unknown content type', [{ role: 'user', content: [{ type: 'video', url: 'x' }] }], "messages.0.content.0.type: Input tag 'video' found using 'type' does not match any of the expected tags: 'text', 'image', 'document', 'tool_result', 'search_result'"],
    ['five cache breakpoints', [{ role: 'user', content: [1, 2, 3, 4, 5].map((n) => ({ type: 'text', text: `block ${n}`, cache_control: { type: 'ephemeral' } })) }], 'A maximum of 4 blocks with cache_control may be provided. Found 5.'],
  ])('rejects %s with the index named', async (_name, messages, text) => {
    const { client, sim } = await clientFor();
    const error = await rejection(client.messages.create(base(messages as Params['messages'])));
    expect(error.status).toBe(400);
    expect(error.error).toMatchObject({ error: { type: 'invalid_request_error', message: text } });
    expect(sim.requests.at(-1)?.rejectedForShape).toBe(true);
  });

  it('allows an empty final assistant message (prefill)', async () => {
    const { client } = await clientFor();
    await expect(client.messages.create(base([{ role: 'user', content: 'go' }, { role: 'assistant', content: '' }]))).resolves.toBeDefined();
  });

  it('caches prefixes at breakpoints and reports reads on the next turn', async () => {
    const { client } = await clientFor({ minCacheableTokens: 100 });
    const system: Anthropic.TextBlockParam[] = [{ type: 'text', text: 'You are a careful assistant. '.repeat(100), cache_control: { type: 'ephemeral' } }];
    const first = await client.messages.create(base([{ role: 'user', content: [{ type: 'text', text: 'first question', cache_control: { type: 'ephemeral' } }] }], { system }));
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(first.usage.cache_read_input_tokens).toBe(0);
    const second = await client.messages.create(
      base([{ role: 'user', content: 'first question' }, { role: 'assistant', content: 'an answer' }, { role: 'user', content: [{ type: 'text', text: 'second', cache_control: { type: 'ephemeral', ttl: '1h' } }] }], { system }),
    );
    expect(second.usage.cache_read_input_tokens).toBeGreaterThan(0);
    expect(second.usage.cache_creation?.ephemeral_1h_input_tokens).toBeGreaterThan(0);
    const total = second.usage.input_tokens + (second.usage.cache_read_input_tokens ?? 0) + (second.usage.cache_creation_input_tokens ?? 0);
    const counted = await client.messages.countTokens({ model: 'claude-sonnet-4-5', system, messages: [{ role: 'user', content: 'first question' }, { role: 'assistant', content: 'an answer' }, { role: 'user', content: 'second' }] });
    expect(total).toBe(counted.input_tokens);
  });

  it('caches nothing under the minimum length, and expires entries after their TTL', async () => {
    let clock = 0;
    const { client } = await clientFor({ minCacheableTokens: 100, now: () => clock });
    const small = await client.messages.create(base([{ role: 'user', content: [{ type: 'text', text: 'tiny', cache_control: { type: 'ephemeral' } }] }]));
    expect(small.usage.cache_creation_input_tokens).toBe(0);
    const long = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'context '.repeat(300), cache_control: { type: 'ephemeral' as const } }] }];
    await client.messages.create(base(long));
    clock += 4 * 60_000;
    expect((await client.messages.create(base(long))).usage.cache_read_input_tokens).toBeGreaterThan(0);
    clock += 6 * 60_000;
    expect((await client.messages.create(base(long))).usage.cache_read_input_tokens).toBe(0);
  });
});
