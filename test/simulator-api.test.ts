import { createAnthropic } from '@ai-sdk/anthropic';
import Anthropic from '@anthropic-ai/sdk';
import { generateText } from 'ai';

type ApiError = InstanceType<typeof Anthropic.APIError>;
import { afterEach, describe, expect, it } from 'vitest';
import {
  countTokens,
  startSimulator,
  type Simulator,
  type SimulatorFeature,
  type SimulatorOptions,
} from '@ctxhost/simulator';

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
const base = (messages: Params['messages'], extra: Partial<Params> = {}): Params => ({
  model: 'claude-sonnet-4-6',
  max_tokens: 100,
  messages,
  ...extra,
});

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
    const counted = await client.messages.countTokens({
      model: 'claude-sonnet-4-6',
      messages: [{ role: 'user', content: 'one two three' }],
    });
    const message = await client.messages.create(base([{ role: 'user', content: 'one two three' }]));
    expect(counted.input_tokens).toBe(message.usage.input_tokens);
  });

  it('plays scripted turns, tool use included, streaming and not', async () => {
    const { client, sim } = await clientFor();
    const toolTurn = {
      content: [
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'toolu_1', name: 'ls', input: { path: '.' } },
      ],
    };
    sim.script(toolTurn, toolTurn);
    const plain = await client.messages.create(base([{ role: 'user', content: 'list' }]));
    expect(plain.stop_reason).toBe('tool_use');
    const streamed = await client.messages.stream(base([{ role: 'user', content: 'list' }])).finalMessage();
    expect(streamed.content).toEqual(plain.content);
  });

  it('allows an empty final assistant message (prefill)', async () => {
    const { client } = await clientFor();
    await expect(
      client.messages.create(
        base([
          { role: 'user', content: 'go' },
          { role: 'assistant', content: '' },
        ]),
      ),
    ).resolves.toBeDefined();
  });

  it('caches prefixes at breakpoints and reports reads on the next turn', async () => {
    const { client } = await clientFor({ minCacheableTokens: 100 });
    const system: Anthropic.TextBlockParam[] = [
      { type: 'text', text: 'You are a careful assistant. '.repeat(100), cache_control: { type: 'ephemeral' } },
    ];
    const first = await client.messages.create(
      base(
        [{ role: 'user', content: [{ type: 'text', text: 'first question', cache_control: { type: 'ephemeral' } }] }],
        { system },
      ),
    );
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(first.usage.cache_read_input_tokens).toBe(0);
    const second = await client.messages.create(
      base(
        [
          { role: 'user', content: 'first question' },
          { role: 'assistant', content: 'an answer' },
          {
            role: 'user',
            content: [{ type: 'text', text: 'second', cache_control: { type: 'ephemeral', ttl: '1h' } }],
          },
        ],
        { system },
      ),
    );
    expect(second.usage.cache_read_input_tokens).toBeGreaterThan(0);
    expect(second.usage.cache_creation?.ephemeral_1h_input_tokens).toBeGreaterThan(0);
    const total =
      second.usage.input_tokens +
      (second.usage.cache_read_input_tokens ?? 0) +
      (second.usage.cache_creation_input_tokens ?? 0);
    const counted = await client.messages.countTokens({
      model: 'claude-sonnet-4-6',
      system,
      messages: [
        { role: 'user', content: 'first question' },
        { role: 'assistant', content: 'an answer' },
        { role: 'user', content: 'second' },
      ],
    });
    expect(total).toBe(counted.input_tokens);
  });

  it('caches nothing under the minimum length, and expires entries after their TTL', async () => {
    let clock = 0;
    const { client } = await clientFor({ minCacheableTokens: 100, now: () => clock });
    const small = await client.messages.create(
      base([{ role: 'user', content: [{ type: 'text', text: 'tiny', cache_control: { type: 'ephemeral' } }] }]),
    );
    expect(small.usage.cache_creation_input_tokens).toBe(0);
    const long = [
      {
        role: 'user' as const,
        content: [
          { type: 'text' as const, text: 'context '.repeat(300), cache_control: { type: 'ephemeral' as const } },
        ],
      },
    ];
    await client.messages.create(base(long));
    clock += 4 * 60_000;
    expect((await client.messages.create(base(long))).usage.cache_read_input_tokens).toBeGreaterThan(0);
    clock += 6 * 60_000;
    expect((await client.messages.create(base(long))).usage.cache_read_input_tokens).toBe(0);
  });

  it('puts a request id in every response header and error body, and answers unknown routes with 404', async () => {
    const { client, sim } = await clientFor();
    const { response } = await client.messages.create(base([{ role: 'user', content: 'hi' }])).withResponse();
    expect(response.headers.get('request-id')).toBe(sim.requests[0]?.requestId);
    const error = await rejection(client.get('/v1/models'));
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    expect(error.error).toEqual({
      type: 'error',
      error: { type: 'not_found_error', message: 'Not found: GET /v1/models' },
      request_id: sim.requests[1]?.requestId,
    });
    expect(error.requestID).toBe(sim.requests[1]?.requestId);
  });

  it('tells a client given the bare URL, that adds only the route (the AI SDK), to end its base URL in /v1', async () => {
    simulator = await startSimulator();
    // The URL the simulator prints for ANTHROPIC_BASE_URL, which @ai-sdk/anthropic reads too.
    const model = createAnthropic({ baseURL: simulator.url, apiKey: 'test' })('claude-sonnet-4-6');
    const failed = await generateText({ model, prompt: 'hi', maxRetries: 0 }).catch((error: unknown) => error);
    expect(String((failed as Error).message)).toContain(`takes ${simulator.url}/v1`);
    const error = await rejection(
      new Anthropic({ apiKey: 'test', baseURL: simulator.url, maxRetries: 0 }).get('/v1/models'),
    );
    expect(error.message).not.toContain('/v1)');
  });

  it('records method, path, headers, betas, body, status and usage', async () => {
    const { client, sim } = await clientFor();
    await client.messages.create(base([{ role: 'user', content: 'hi' }]), {
      headers: { 'anthropic-beta': 'context-management-2025-06-27, other-beta' },
    });
    const [record] = sim.requests;
    expect(record).toMatchObject({
      method: 'POST',
      path: '/v1/messages',
      status: 200,
      stream: false,
      rejectedForShape: false,
      betas: ['context-management-2025-06-27', 'other-beta'],
      stopReason: 'end_turn',
    });
    expect(record?.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(record?.headers['user-agent']).toContain('Anthropic/JS');
    expect(record?.body).toMatchObject({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'hi' }] });
    expect(record?.usage?.input_tokens).toBe(countTokens({ messages: [{ role: 'user', content: 'hi' }] }));
  });

  it('counts tokens with the exported tokenizer, and validates count_tokens bodies', async () => {
    const { client } = await clientFor();
    const request = {
      model: 'claude-sonnet-4-6',
      system: 'be brief',
      messages: [{ role: 'user' as const, content: 'one two three' }],
      tools: [{ name: 'ls', input_schema: { type: 'object' as const } }],
    };
    expect((await client.messages.countTokens(request)).input_tokens).toBe(countTokens(request));
    const error = await rejection(
      client.messages.countTokens({ model: 'claude-sonnet-4-6', messages: [{ role: 'assistant', content: 'x' }] }),
    );
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
  });

  it('streams thinking, text and tool_use with the API’s events', async () => {
    const { client, sim } = await clientFor();
    const turn = {
      content: [
        { type: 'thinking', thinking: 'Let me think. '.repeat(10), signature: 'sig_1' },
        { type: 'text', text: 'Answer. '.repeat(20) },
        { type: 'tool_use', id: 'toolu_t', name: 'read', input: { path: 'a.ts', lines: [1, 2] } },
      ],
    };
    sim.script(turn, turn);
    const plain = await client.messages.create(base([{ role: 'user', content: 'think' }]));
    const raw = await (
      await client.messages.create({ ...base([{ role: 'user', content: 'think' }]), stream: true }).asResponse()
    ).text();
    const events = [...raw.matchAll(/^event: (\w+)\ndata: (.*)$/gm)].map(([, event, data]) =>
      event === 'content_block_delta' ? (JSON.parse(data!) as { delta: { type: string } }).delta.type : event!,
    );
    expect(events.slice(0, 2)).toEqual(['message_start', 'ping']);
    for (const delta of ['thinking_delta', 'signature_delta', 'text_delta', 'input_json_delta'])
      expect(events).toContain(delta);
    expect(events.slice(-2)).toEqual(['message_delta', 'message_stop']);
    sim.script(turn);
    expect((await client.messages.stream(base([{ role: 'user', content: 'think' }])).finalMessage()).content).toEqual(
      plain.content,
    );
    expect(plain.stop_reason).toBe('tool_use');
  });

  it('applies a scripted turn’s usage overrides and stop reason', async () => {
    const { client, sim } = await clientFor();
    sim.script({ content: 'cut', stopReason: 'max_tokens', usage: { output_tokens: 4096, input_tokens: 7 } });
    const message = await client.messages.create(base([{ role: 'user', content: 'long answer please' }]));
    expect(message.stop_reason).toBe('max_tokens');
    expect(message.usage).toMatchObject({ output_tokens: 4096, input_tokens: 7, cache_read_input_tokens: 0 });
  });

  it('replays content-block turns in order, after scripted ones, then falls back to the default', async () => {
    const { client, sim } = await clientFor({
      replay: [[{ type: 'text', text: 'recorded one' }], { content: [{ type: 'text', text: 'recorded two' }] }],
    });
    sim.script('scripted first');
    const texts: string[] = [];
    for (let turn = 0; turn < 4; turn++) {
      const message = await client.messages.create(base([{ role: 'user', content: 'next' }]));
      texts.push(message.content[0]?.type === 'text' ? message.content[0].text : '');
    }
    expect(texts).toEqual(['scripted first', 'recorded one', 'recorded two', 'Simulated reply about: next']);
  });

  it('calls the first offered tool by default when asked to, then answers the tool result in text', async () => {
    const { client } = await clientFor({ defaultToolUse: true });
    const tools: Anthropic.Tool[] = [
      {
        name: 'grep',
        input_schema: {
          type: 'object',
          properties: { pattern: { type: 'string' }, limit: { type: 'integer' } },
          required: ['pattern', 'limit'],
        },
      },
    ];
    const first = await client.messages.create(base([{ role: 'user', content: 'find TODOs' }], { tools }));
    const call = first.content.find((block) => block.type === 'tool_use');
    expect(first.stop_reason).toBe('tool_use');
    expect(call).toMatchObject({ name: 'grep', input: { pattern: 'find TODOs', limit: 1 } });
    const again = await client.messages.create(base([{ role: 'user', content: 'find TODOs' }], { tools }));
    expect(again.content).toEqual(first.content);
    const second = await client.messages.create(
      base(
        [
          { role: 'user', content: 'find TODOs' },
          { role: 'assistant', content: first.content },
          {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: call?.type === 'tool_use' ? call.id : '', content: 'none' }],
          },
        ],
        { tools },
      ),
    );
    expect(second.stop_reason).toBe('end_turn');
  });

  it('runs a server-side feature only when its beta header is sent (the hook point for server-side context management)', async () => {
    const feature: SimulatorFeature = {
      name: 'keep-last-message',
      beta: 'keep-last-2099-01-01',
      blockTypes: ['marker'],
      prepareRequest: (request) => ({ ...request, messages: request.messages.slice(-1) }),
      finishTurn: (turn) => ({ ...turn, content: [...turn.content, { type: 'marker', note: 'feature ran' }] }),
    };
    const { client } = await clientFor({ features: [feature] });
    const messages: Params['messages'] = [
      { role: 'user', content: 'a long first question '.repeat(20) },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'short' },
    ];
    const without = await client.messages.create(base(messages));
    const beta = { headers: { 'anthropic-beta': 'keep-last-2099-01-01' } };
    const withFeature = await client.messages.create(base(messages), beta);
    expect(withFeature.usage.input_tokens).toBe(countTokens({ messages: [{ role: 'user', content: 'short' }] }));
    expect(without.usage.input_tokens).toBeGreaterThan(withFeature.usage.input_tokens);
    expect(withFeature.content.at(-1)).toMatchObject({ type: 'marker' });
    const marker = [
      { role: 'user' as const, content: [{ type: 'marker', note: 'sent back' }] },
    ] as unknown as Params['messages'];
    await expect(client.messages.create(base(marker), beta)).resolves.toBeDefined();
    expect((await rejection(client.messages.create(base(marker)))).status).toBe(400);
  });
});
