import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, type AgentTool } from '@ctxhost/anthropic';
import { createHost } from '@ctxhost/core';
import { createOpenAIModel, createOpenAISummarizer, toProviderError, withContextManagement } from '@ctxhost/openai';
import { startSimulator, SUMMARY_HEADINGS, type Simulator, type SimulatorOptions } from '@ctxhost/simulator';
import { createDefaultHost } from 'ctxhost';
import { collectDeprecations } from './support/collect-deprecations.js';

// @ctxhost/openai through the real openai SDK against the simulator's /v1/chat/completions.
let sim: Simulator | undefined;

// Deprecated options are used here on purpose: their warnings are collected, not printed.
collectDeprecations();
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});
async function simulator(options: SimulatorOptions = {}) {
  sim = await startSimulator(options);
  return { sim, client: new OpenAI({ apiKey: 'test', baseURL: `${sim.url}/v1`, maxRetries: 0 }) };
}

const weather: AgentTool = {
  definition: {
    name: 'get_weather',
    description: 'Weather for a city',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
  run: async (input) => `sunny in ${(input as { city: string }).city}, 18°C`,
};

describe('createOpenAIModel', () => {
  it('runs the agent loop with tools over Chat Completions; the window comes from the model name', async () => {
    const { sim, client } = await simulator();
    sim.script(
      { content: [{ type: 'tool_use', id: 'call_w', name: 'get_weather', input: { city: 'Oslo' } }] },
      { content: 'Sunny in Oslo.' },
    );
    const host = createHost();
    const agent = createAgent({
      host,
      model: createOpenAIModel(client, { model: 'gpt-4o' }),
      tools: [weather],
      system: 'You are helpful.',
    });
    expect(await agent.send('s1', 'Weather in Oslo?')).toMatchObject({ status: 'done', turns: 2 });
    const session = await host.session('s1');
    expect(session.contextWindow).toBe(128_000);
    expect(session.messages().map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(session.messages()[3]!.parts[0]).toMatchObject({
      type: 'tool-result',
      callId: 'call_w',
      output: 'sunny in Oslo, 18°C',
    });
    const second = sim.requests[1]!.body as OpenAI.Chat.ChatCompletionCreateParams;
    expect(second.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(second).toHaveProperty('max_completion_tokens');
    expect(sim.requests.every((request) => !request.rejectedForShape)).toBe(true);
  });

  it('streams, and reports cached prompt tokens as cache reads', async () => {
    const { client } = await simulator();
    const model = createOpenAIModel(client, { model: 'gpt-4o', stream: true });
    const host = createHost();
    const agent = createAgent({
      host,
      model,
      system: `Project notes:\n${'the build uses pnpm and vitest; '.repeat(400)}`,
    });
    await agent.send('s1', 'first question');
    const second = await agent.send('s1', 'second question');
    expect(second.status).toBe('done');
    const usage = (await host.session('s1')).lastUsage()!;
    expect(usage.cacheReadInputTokens).toBeGreaterThanOrEqual(1024);
    expect(usage.cacheReadInputTokens % 128).toBe(0);
    expect(usage.inputTokens).toBeGreaterThan(0);
  });

  it('recovers from an overflow on the default host: the error states the window, the session compacts and goes on', async () => {
    const { sim, client } = await simulator({ models: { 'gpt-4o': { contextLimit: 3_000 } } });
    const host = await createDefaultHost({ config: { store: { kind: 'memory' } } });
    const agent = createAgent({ host, model: createOpenAIModel(client, { model: 'gpt-4o' }), maxTokens: 200 });
    const note = (turn: number) => `Turn ${turn}: ${'a long build log line that matters little; '.repeat(40)}`;
    const outcomes = [];
    for (let turn = 1; turn <= 8; turn++) outcomes.push(await agent.send('s1', note(turn)));
    const overflowed = sim.requests.filter((request) => request.status === 400);
    expect(overflowed.length).toBeGreaterThan(0);
    expect(overflowed[0]!.error).toMatch(/maximum context length is 3000 tokens/);
    expect(sim.requests.at(-1)!.status).toBe(200);
    expect(sim.requests.every((request) => !request.rejectedForShape)).toBe(true);
    await host.dispose();
  });
});

describe('toProviderError', () => {
  it('reads an overflow from the real SDK error, with both numbers', async () => {
    const { client } = await simulator({ contextLimit: 500 });
    const error = await client.chat.completions
      .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'word '.repeat(3000) }] })
      .catch((caught: unknown) => caught);
    expect(toProviderError(error)).toMatchObject({
      kind: 'context_overflow',
      status: 400,
      maxTokens: 500,
      provider: 'openai',
    });
    expect(toProviderError(error).currentTokens).toBeGreaterThan(500);
  });

  it.each([
    [
      'DeepSeek, prompt + completion',
      {
        error: {
          message:
            "This model's maximum context length is 131072 tokens. However, you requested 140263 tokens (136167 in the messages, 4096 in the completion). Please reduce the length of the messages or completion.",
          type: 'invalid_request_error',
          code: 'invalid_request_error',
        },
      },
      { kind: 'output_budget_overflow', currentTokens: 140263, maxTokens: 131072 },
    ],
    [
      'OpenRouter',
      {
        error: {
          code: 400,
          message:
            'This endpoint\'s maximum context length is 200000 tokens. However, you requested about 210520 tokens (202520 of text input, 8000 in the output). Please reduce the length of either one, or use the "middle-out" transform to compress your prompt automatically.',
        },
      },
      { kind: 'output_budget_overflow', maxTokens: 200000, provider: 'openrouter', status: 400 },
    ],
    [
      'vLLM',
      {
        error: {
          message:
            "This model's maximum context length is 32768 tokens. However, your request has 40960 input tokens. Please reduce the length of the input messages.",
          type: 'BadRequestError',
          param: null,
          code: 400,
        },
      },
      { kind: 'context_overflow', currentTokens: 40960, maxTokens: 32768, status: 400 },
    ],
    [
      'vLLM, older flat body',
      {
        object: 'error',
        message:
          "This model's maximum context length is 4096 tokens. However, your request has 5000 input tokens. Please reduce the length of the input messages.",
        type: 'BadRequestError',
        code: 400,
      },
      { kind: 'context_overflow', maxTokens: 4096, status: 400 },
    ],
    [
      'Azure, code only',
      {
        error: {
          code: 'context_length_exceeded',
          message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
        },
      },
      { kind: 'context_overflow' },
    ],
    [
      'a TPM rate limit is not an overflow',
      {
        error: {
          message:
            'Rate limit reached for gpt-4o in organization org-abc on tokens per min (TPM): Limit 30000, Used 28000, Requested 5000. Please try again in 6s.',
          type: 'tokens',
          code: 'rate_limit_exceeded',
        },
      },
      { kind: 'rate_limited' },
    ],
    [
      'max_tokens above the output cap is not an overflow',
      {
        error: {
          message:
            'max_tokens is too large: 200000. This model supports at most 16384 completion tokens, whereas you provided 200000.',
          type: 'invalid_request_error',
          param: 'max_tokens',
          code: 'invalid_value',
        },
      },
      { kind: 'invalid_request' },
    ],
    [
      'quota',
      {
        error: {
          message: 'You exceeded your current quota, please check your plan and billing details.',
          type: 'insufficient_quota',
          code: 'insufficient_quota',
        },
      },
      { kind: 'auth' },
    ],
  ])('classifies %s', (_name, body, expected) => {
    expect(toProviderError(body)).toMatchObject(expected);
  });

  it('classifies the SDK errors by structure: rate limit with retry-after, tool pairing, connection', async () => {
    const { sim, client } = await simulator();
    sim.faults.next(1, { kind: 'rate_limit', retryAfterSeconds: 2 });
    const limited = await client.chat.completions
      .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] })
      .catch((caught: unknown) => caught);
    expect(toProviderError(limited)).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 2000 });
    const orphan = await client.chat.completions
      .create({
        model: 'gpt-4o',
        messages: [
          { role: 'user', content: 'x' },
          { role: 'tool', tool_call_id: 'nope', content: 'r' },
        ],
      })
      .catch((caught: unknown) => caught);
    expect(toProviderError(orphan)).toMatchObject({ kind: 'invalid_tool_pairing', messageIndex: 1 });
    sim.faults.next(1, 'drop');
    const dropped = await client.chat.completions
      .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] })
      .catch((caught: unknown) => caught);
    expect(toProviderError(dropped).kind).toBe('network');
  });
});

describe('withContextManagement', () => {
  const toolHistory = (results: number): OpenAI.Chat.ChatCompletionMessageParam[] => {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: 'Fix the failing build.' },
    ];
    for (let index = 0; index < results; index++) {
      messages.push({
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: `call_${index}`,
            type: 'function',
            function: { name: 'bash', arguments: `{"command":"cat log${index}.txt"}` },
          },
        ],
      });
      messages.push({
        role: 'tool',
        tool_call_id: `call_${index}`,
        content: `log ${index}: ${'compiler output that goes on and on; '.repeat(60)}`,
      });
    }
    messages.push({ role: 'user', content: 'What failed?' });
    return messages;
  };

  it('recovers from an overflow the caller never sees, on every call (an unknown window is not learned per process)', async () => {
    const { sim, client } = await simulator({
      models: { 'my-local-model': { contextLimit: 2_000, overflowStyle: 'vllm' } },
    });
    const events: string[] = [];
    const wrapped = withContextManagement(client, { onCompaction: (event) => events.push(event.reason) });
    const reply = await wrapped.chat.completions.create({
      model: 'my-local-model',
      max_tokens: 100,
      messages: toolHistory(8),
    });
    expect(reply.choices[0]?.message.content).toContain('Simulated reply');
    expect(events).toEqual(['overflow']);
    expect(sim.requests.map((request) => request.status)).toEqual([400, 200]);
    // A window learned by one worker would make workers project the same prompt differently: the next call recovers too.
    const again = await wrapped.chat.completions.create({
      model: 'my-local-model',
      max_tokens: 100,
      messages: toolHistory(9),
    });
    expect(again.choices[0]?.message.content).toContain('Simulated reply');
    expect(events).toEqual(['overflow', 'overflow']);
    expect(sim.requests.map((request) => request.status)).toEqual([400, 200, 400, 200]);
    expect(sim.requests.every((request) => !request.rejectedForShape)).toBe(true);
  });

  it('compacts before sending once the window is given (config: { models })', async () => {
    const { sim, client } = await simulator({
      models: { 'my-local-model': { contextLimit: 2_000, overflowStyle: 'vllm' } },
    });
    const events: string[] = [];
    const wrapped = withContextManagement(client, {
      config: { models: { 'my-local-model': { contextWindow: 2_000 } } },
      onCompaction: (event) => events.push(event.reason),
    });
    const reply = await wrapped.chat.completions.create({
      model: 'my-local-model',
      max_tokens: 100,
      messages: toolHistory(8),
    });
    expect(reply.choices[0]?.message.content).toContain('Simulated reply');
    expect(events).toEqual(['preflight']);
    expect(sim.requests.map((request) => request.status)).toEqual([200]);
  });

  it('compacts before sending when the window is known (registry or option), so no request overflows', async () => {
    const { sim, client } = await simulator({ models: { 'gpt-4o': { contextLimit: 2_500 } } });
    const wrapped = withContextManagement(client, { models: { 'gpt-4o': { contextWindow: 2_500 } } });
    const stream = await wrapped.chat.completions.create({
      model: 'gpt-4o',
      max_completion_tokens: 100,
      stream: true,
      messages: toolHistory(8),
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toContain('Simulated reply');
    expect(sim.requests.map((request) => request.status)).toEqual([200]);
  });

  it('passes other errors through unchanged', async () => {
    const { sim, client } = await simulator();
    sim.faults.next(1, 'server_error');
    const error = await withContextManagement(client)
      .chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
  });
});

describe('createOpenAISummarizer', () => {
  it('summarizes a span through any OpenAI-compatible endpoint', async () => {
    const { sim, client } = await simulator();
    const summarizer = createOpenAISummarizer(client, { model: 'deepseek-chat' });
    const { fromOpenAI } = await import('@ctxhost/core');
    const text = await summarizer.summarize({
      instructions: `Summarize with these sections: ${SUMMARY_HEADINGS.map((heading) => `## ${heading}`).join('\n')}`,
      messages: fromOpenAI([
        { role: 'user', content: 'Fix src/build.ts so that pnpm test passes' },
        { role: 'assistant', content: 'Done: edited src/build.ts' },
      ]),
      maxOutputTokens: 500,
    });
    expect(text).toContain('## Goal');
    expect(text).toContain('src/build.ts');
    expect((sim.requests[0]!.body as { model: string }).model).toBe('deepseek-chat');
    expect(summarizer.name).toBe('openai:deepseek-chat');
  });
});
