import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseTokenLimitError } from '@ctxhost/core';
import { startSimulator, type Simulator } from '@ctxhost/simulator';

// The simulator's /v1/chat/completions, through the official openai SDK.
let sim: Simulator;
let client: OpenAI;

beforeAll(async () => {
  sim = await startSimulator({
    contextLimit: 4000,
    models: {
      'gpt-small': { contextLimit: 600 },
      'vllm-small': { contextLimit: 600, overflowStyle: 'vllm' },
      'or-small': { contextLimit: 600, overflowStyle: 'openrouter' },
    },
  });
  client = new OpenAI({ apiKey: 'test', baseURL: `${sim.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(() => {
  sim.faults.clear();
  sim.clearCache();
});

const tools: OpenAI.Chat.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'bash',
      description: 'run a command',
      parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
    },
  },
];

describe('POST /v1/chat/completions', () => {
  it('answers a chat completion with usage', async () => {
    const reply = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'list the files' },
      ],
    });
    expect(reply.object).toBe('chat.completion');
    expect(reply.choices[0]?.message.content).toBe('Simulated reply about: list the files');
    expect(reply.choices[0]?.finish_reason).toBe('stop');
    expect(reply.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(reply.usage?.prompt_tokens_details?.cached_tokens).toBe(0);
    expect(sim.requests.at(-1)?.path).toBe('/v1/chat/completions');
  });

  it('returns scripted tool calls and accepts their results', async () => {
    sim.script({ content: [{ type: 'tool_use', id: 'call_1', name: 'bash', input: { command: 'ls' } }] });
    const first = await client.chat.completions.create({
      model: 'gpt-4o',
      tools,
      messages: [{ role: 'user', content: 'list the files' }],
    });
    const call = first.choices[0]?.message.tool_calls?.[0];
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    expect(call).toMatchObject({
      id: 'call_1',
      type: 'function',
      function: { name: 'bash', arguments: '{"command":"ls"}' },
    });
    const second = await client.chat.completions.create({
      model: 'gpt-4o',
      tools,
      messages: [
        { role: 'user', content: 'list the files' },
        first.choices[0]!.message,
        { role: 'tool', tool_call_id: 'call_1', content: 'a.txt b.txt' },
      ],
    });
    expect(second.choices[0]?.message.content).toContain('Simulated reply');
  });

  it('streams text and tool calls the SDK reassembles, with the usage chunk', async () => {
    sim.script({
      content: [
        { type: 'text', text: 'x'.repeat(150) },
        { type: 'tool_use', id: 'call_9', name: 'bash', input: { command: 'cat '.repeat(30) } },
      ],
    });
    const stream = client.chat.completions.stream({
      model: 'gpt-4o',
      tools,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'go' }],
    });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe('x'.repeat(150));
    expect(final.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      id: 'call_9',
      function: { name: 'bash', arguments: JSON.stringify({ command: 'cat '.repeat(30) }) },
    });
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
    expect(final.usage?.completion_tokens).toBeGreaterThan(0);
  });

  it('caches a repeated prefix from 1,024 tokens, in steps of 128', async () => {
    const big = await startSimulator({ contextLimit: 100_000 });
    try {
      const openai = new OpenAI({ apiKey: 'test', baseURL: `${big.url}/v1`, maxRetries: 0 });
      const history: OpenAI.Chat.ChatCompletionMessageParam[] = [
        { role: 'system', content: 'word '.repeat(3000) },
        { role: 'user', content: 'first question' },
      ];
      const first = await openai.chat.completions.create({ model: 'gpt-4o', messages: history });
      expect(first.usage?.prompt_tokens_details?.cached_tokens).toBe(0);
      const second = await openai.chat.completions.create({
        model: 'gpt-4o',
        messages: [...history, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'second' }],
      });
      const cached = second.usage?.prompt_tokens_details?.cached_tokens ?? 0;
      expect(cached).toBeGreaterThanOrEqual(1024);
      expect(cached % 128).toBe(0);
      expect(cached).toBeLessThanOrEqual(first.usage!.prompt_tokens);
      const short = await openai.chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'hi' }],
      });
      await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
      expect(short.usage?.prompt_tokens_details?.cached_tokens).toBe(0);
    } finally {
      await big.close();
    }
  });

  it.each([
    [
      'gpt-small',
      /^This model's maximum context length is 600 tokens\. However, your messages resulted in \d+ tokens\./,
    ],
    ['vllm-small', /^This model's maximum context length is 600 tokens\. However, your request has \d+ input tokens\./],
    ['or-small', /^This endpoint's maximum context length is 600 tokens\. However, you requested about \d+ tokens/],
  ])('answers an overflow of %s as a 400 context_length_exceeded the core parser reads', async (model, text) => {
    const error = await client.chat.completions
      .create({ model, max_tokens: 100, messages: [{ role: 'user', content: 'word '.repeat(4000) }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const bad = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect(bad.status).toBe(400);
    expect(bad.code).toBe('context_length_exceeded');
    expect((bad.error as { message: string }).message).toMatch(text);
    expect(parseTokenLimitError(bad)).toMatchObject({ maxTokens: 600 });
  });

  it('rejects tool messages that answer no call, and calls left unanswered, in OpenAI words', async () => {
    const orphan = await client.chat.completions
      .create({
        model: 'gpt-4o',
        messages: [
          { role: 'user', content: 'x' },
          { role: 'tool', tool_call_id: 'call_x', content: 'r' },
        ],
      })
      .catch((caught: unknown) => caught);
    expect((orphan as Error).message).toContain(
      "messages with role 'tool' must be a response to a preceeding message with 'tool_calls'",
    );
    const unanswered = await client.chat.completions
      .create({
        model: 'gpt-4o',
        messages: [
          { role: 'user', content: 'x' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'bash', arguments: '{}' } }],
          },
          { role: 'user', content: 'y' },
        ],
      })
      .catch((caught: unknown) => caught);
    expect((unanswered as Error).message).toContain('did not have response messages: call_a');
    expect(sim.requests.at(-1)?.rejectedForShape).toBe(true);
  });

  it('injects the same faults as /v1/messages', async () => {
    sim.faults.next(1, { kind: 'rate_limit', retryAfterSeconds: 3 });
    const limited = await client.chat.completions
      .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] })
      .catch((caught: unknown) => caught);
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    expect((limited as InstanceType<typeof OpenAI.RateLimitError>).headers.get('retry-after')).toBe('3');
    sim.faults.next(1, 'overloaded');
    const overloaded = await client.chat.completions
      .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] })
      .catch((caught: unknown) => caught);
    expect((overloaded as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
    sim.faults.next(1, 'drop');
    expect(
      await client.chat.completions
        .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] })
        .catch((caught: unknown) => caught),
    ).toBeInstanceOf(OpenAI.APIConnectionError);
    sim.faults.next(1, 'sse_error');
    const stream = await client.chat.completions.create({
      model: 'gpt-4o',
      stream: true,
      messages: [{ role: 'user', content: 'x' }],
    });
    const consumed = (async () => {
      for await (const _chunk of stream) void _chunk;
    })();
    await expect(consumed).rejects.toThrow(/server had an error/);
  });
});
