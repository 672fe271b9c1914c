import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createAgent,
  createAnthropicModel,
  createAnthropicSummarizer,
  withContextManagement,
  type AgentTool,
} from '@ctxhost/anthropic';
import { createHost, type SessionErrorEvent } from '@ctxhost/core';
import { startSimulator, SUMMARY_HEADINGS, type Simulator, type SimulatorOptions } from '@ctxhost/simulator';
import { createToolOutputTruncator } from '@ctxhost/tool-output-truncator';
import { collectDeprecations } from './support/collect-deprecations.js';

let sim: Simulator | undefined;

// Deprecated options are used here on purpose: their warnings are collected, not printed.
collectDeprecations();
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});
async function simulator(options: SimulatorOptions = {}) {
  sim = await startSimulator(options);
  return { sim, client: new Anthropic({ apiKey: 'test', baseURL: sim.url, maxRetries: 0 }) };
}

const weather: AgentTool = {
  definition: {
    name: 'get_weather',
    description: 'Weather for a city',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
  run: async (input) => `sunny in ${(input as { city: string }).city}, 18°C`,
};
const readFile: AgentTool = {
  definition: {
    name: 'read_file',
    description: 'Read a file',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  },
  run: async () => 'line\n'.repeat(20_000),
};

describe('agent loop', () => {
  it('runs a multi-turn session with two tools, results through the tool-result hook, originals kept', async () => {
    const { sim, client } = await simulator();
    sim.script(
      {
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_w', name: 'get_weather', input: { city: 'Oslo' } },
          { type: 'tool_use', id: 'toolu_r', name: 'read_file', input: { path: 'log.txt' } },
        ],
      },
      { content: 'It is sunny in Oslo; the log is long.' },
      { content: 'Second answer.' },
    );
    const host = createHost({ plugins: [createToolOutputTruncator({ maxTokens: 1000 })] });
    const idle: string[] = [];
    host.hooks.sessionIdle.tapPromise('t', async ({ sessionId }) => {
      idle.push(sessionId);
    });
    const agent = createAgent({
      host,
      model: createAnthropicModel(client, { model: 'claude-sonnet-4-6', contextWindow: 200_000 }),
      tools: [weather, readFile],
      system: 'You are helpful.',
    });
    const first = await agent.send('s1', 'Weather in Oslo, and read log.txt');
    expect(first).toMatchObject({ status: 'done', turns: 2 });
    const second = await agent.send('s1', 'And again?');
    expect(second.status).toBe('done');
    const session = await host.session('s1');
    expect(session.messages().map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
      'assistant',
    ]);
    const results = session.messages()[3]!.parts;
    expect(results[0]).toMatchObject({ type: 'tool-result', output: 'sunny in Oslo, 18°C' });
    expect(results[1]).toMatchObject({ compacted: { by: 'tool-output-truncator' } });
    expect(await session.original(results[1]!.id)).toMatchObject({ output: 'line\n'.repeat(20_000) });
    expect(idle).toEqual(['s1', 's1']);
    expect(session.lastUsage()?.inputTokens).toBeGreaterThan(0);
    expect(sim.requests.every((request) => !request.rejectedForShape)).toBe(true);
  });

  it('announces an API error as session.error, then session.idle, and can be asked to resend', async () => {
    const { sim, client } = await simulator();
    const host = createHost();
    const events: string[] = [];
    let error: SessionErrorEvent | undefined;
    host.hooks.sessionError.tapPromise('t', async (event) => {
      events.push('error');
      error = event;
    });
    host.hooks.sessionIdle.tapPromise('t', async () => {
      events.push('idle');
    });
    const agent = createAgent({ host, model: createAnthropicModel(client, { model: 'claude-sonnet-4-6' }) });
    sim.faults.next(1, 'overloaded');
    const outcome = await agent.send('s2', 'hello');
    expect(outcome).toMatchObject({ status: 'error', error: { kind: 'overloaded' } });
    expect(events).toEqual(['error', 'idle']);
    expect(error?.error.status).toBe(529);
    const resent = await host.hooks.resend.promise({ sessionId: 's2', reason: 'test' });
    expect(resent).toBe(true);
    expect((await host.session('s2')).messages().at(-1)?.role).toBe('assistant');
    expect(await host.hooks.resend.promise({ sessionId: 'not-mine', reason: 'test' })).toBeUndefined();
  });

  it('reports a successful stop at the window as an overflow', async () => {
    const { client } = await simulator({ contextLimit: 50, overflowStyle: 'stop_reason' });
    const host = createHost();
    const agent = createAgent({ host, model: createAnthropicModel(client, { model: 'claude-sonnet-4-6' }) });
    const outcome = await agent.send('s3', 'word '.repeat(200));
    expect(outcome).toMatchObject({ status: 'error', error: { kind: 'context_overflow' } });
  });

  it('streams as well', async () => {
    const { client } = await simulator();
    const agent = createAgent({
      host: createHost(),
      model: createAnthropicModel(client, { model: 'claude-sonnet-4-6', stream: true }),
    });
    expect(await agent.send('s4', 'stream me')).toMatchObject({ status: 'done' });
  });
});

describe('withContextManagement', () => {
  it('recovers from an overflow without the caller seeing the error', async () => {
    const { sim, client } = await simulator({ contextLimit: 3_000 });
    const compactions: string[] = [];
    const safe = withContextManagement(client, {
      contextWindow: 1_000_000,
      onCompaction: ({ reason }) => compactions.push(reason),
    });
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'start' }];
    for (let i = 0; i < 12; i++) {
      messages.push({
        role: 'assistant',
        content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'read', input: { i } }],
      });
      messages.push({
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: `output ${i} `.repeat(300) }],
      });
    }
    messages.push({ role: 'assistant', content: 'read them all' }, { role: 'user', content: 'now summarize' });
    const reply = await safe.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 200, messages });
    expect(reply.type).toBe('message');
    expect(compactions).toContain('overflow');
    expect(sim.requests.some((request) => request.status === 400)).toBe(true);
    expect(sim.requests.at(-1)?.status).toBe(200);
    expect(sim.requests.every((request) => !request.rejectedForShape)).toBe(true);
  });

  it('adds cache breakpoints and leaves small requests alone', async () => {
    const { sim, client } = await simulator();
    const safe = withContextManagement(client);
    await safe.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 50,
      system: 'be brief',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(JSON.stringify(sim.requests[0]?.body)).toContain('"cache_control":{"type":"ephemeral"}');
  });
});

describe('createAnthropicSummarizer', () => {
  it('summarizes a span through the simulator’s summary mode', async () => {
    const { client } = await simulator();
    const summarizer = createAnthropicSummarizer(client, { model: 'claude-haiku-4-5' });
    const text = await summarizer.summarize({
      messages: [
        { id: 'u', role: 'user', parts: [{ id: 'u:0', type: 'text', text: 'Fix src/app.ts, the build fails' }] },
      ],
      instructions: SUMMARY_HEADINGS.map((heading) => `## ${heading}`).join('\n'),
      maxOutputTokens: 1000,
    });
    expect(text).toContain('## Goal');
    expect(text).toContain('src/app.ts');
  });
});
