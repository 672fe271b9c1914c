import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { withContextManagement, type ContextManagementOptions, type WrapperCompactionEvent } from '@ctxhost/anthropic';
import { sessionCost } from '@ctxhost/prompt-caching';
import { startSimulator, type Simulator, type SimulatorOptions } from '@ctxhost/simulator';
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

const MODEL = 'claude-sonnet-4-6';
const TASK = 'Task: audit the repository and report every failing module.';

/** A caller's own loop under steady pressure: each turn appends a tool call and a ~700-token result, as agent loops do. */
async function steadyPressure(client: Anthropic, options: ContextManagementOptions, turns: number) {
  const compactions: WrapperCompactionEvent[] = [];
  const wrapped = withContextManagement(client, { ...options, onCompaction: (event) => compactions.push(event) });
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: TASK }];
  const usages = [];
  for (let turn = 0; turn < turns; turn++) {
    const reply = await wrapped.messages.create({ model: MODEL, max_tokens: 512, system: 'You audit code.', messages });
    usages.push({
      inputTokens: reply.usage.input_tokens,
      outputTokens: reply.usage.output_tokens,
      cacheCreationInputTokens: reply.usage.cache_creation_input_tokens ?? 0,
      cacheReadInputTokens: reply.usage.cache_read_input_tokens ?? 0,
    });
    messages.push({
      role: 'assistant',
      content: [
        { type: 'text', text: `Checking module ${turn}.` },
        { type: 'tool_use', id: `toolu_${turn}`, name: 'run_tests', input: { module: turn } },
      ],
    });
    messages.push({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: `toolu_${turn}`,
          content: `module ${turn}: ${'test passed; '.repeat(230)}`,
        },
      ],
    });
  }
  const prompt = usages.reduce(
    (sum, usage) => sum + usage.inputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens,
    0,
  );
  const cacheRead = usages.reduce((sum, usage) => sum + usage.cacheReadInputTokens, 0) / prompt;
  return {
    compactions,
    cacheRead,
    dollars: sessionCost(usages, MODEL).dollars.total,
    requests: sim!.requests.filter((request) => request.path === '/v1/messages'),
  };
}

describe('withContextManagement under steady pressure', () => {
  it('costs no more with caching than without: it compacts to a low-water mark and reuses the projection between calls', async () => {
    const cached = await simulator({ contextLimit: 20_000 });
    const withCaching = await steadyPressure(cached.client, { contextWindow: 20_000 }, 25);
    await cached.sim.close();
    const plain = await simulator({ contextLimit: 20_000 });
    const withoutCaching = await steadyPressure(
      plain.client,
      { contextWindow: 20_000, config: { disabledHooks: ['prompt-caching'] } },
      25,
    );
    expect(withCaching.requests.every((request) => request.status === 200)).toBe(true);
    expect(withCaching.compactions.length).toBeGreaterThan(0);
    expect(withCaching.compactions.length).toBeLessThanOrEqual(3);
    expect(withCaching.dollars).toBeLessThanOrEqual(withoutCaching.dollars);
    // Between compactions each request appends to the previous one's prefix, so most of the prompt is read from cache.
    expect(withCaching.cacheRead).toBeGreaterThan(0.6);
  });

  it('keeps the first (task) message and the newest turn of a text-only history, and says what it summarized', async () => {
    const { client, sim } = await simulator({ contextLimit: 6_000 });
    const compactions: WrapperCompactionEvent[] = [];
    const wrapped = withContextManagement(client, {
      contextWindow: 6_000,
      onCompaction: (event) => compactions.push(event),
    });
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: TASK }];
    for (let turn = 0; turn < 14; turn++)
      messages.push(
        { role: 'assistant', content: `answer ${turn} ${'detail '.repeat(120)}` },
        { role: 'user', content: `question ${turn + 1} ${'context '.repeat(120)}` },
      );
    await wrapped.messages.create({ model: MODEL, max_tokens: 256, messages });
    const sent = (sim.requests.at(-1)!.body as { messages: { content: unknown }[] }).messages;
    expect(JSON.stringify(sent[0]!.content)).toContain(TASK);
    expect(JSON.stringify(sent.at(-1)!.content)).toContain('question 14');
    expect(compactions).toHaveLength(1);
    // The host's compressor puts an extractive summary where old turns were: nothing goes without a trace.
    expect(compactions[0]!.summarized).toBeGreaterThan(0);
    expect(compactions[0]!.tokensAfter).toBeLessThan(compactions[0]!.tokensBefore);
  });

  it('summarizes instead of dropping when asked, with a summarizer on the same client', async () => {
    const { client, sim } = await simulator({ contextLimit: 6_000 });
    const compactions: WrapperCompactionEvent[] = [];
    const wrapped = withContextManagement(client, {
      contextWindow: 6_000,
      summarize: true,
      onCompaction: (event) => compactions.push(event),
    });
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: TASK }];
    for (let turn = 0; turn < 14; turn++)
      messages.push(
        { role: 'assistant', content: `answer ${turn} ${'detail '.repeat(120)}` },
        { role: 'user', content: `question ${turn + 1} ${'context '.repeat(120)}` },
      );
    await wrapped.messages.create({ model: MODEL, max_tokens: 256, messages });
    expect(compactions[0]!.summarized).toBeGreaterThan(0);
    expect(compactions[0]!.dropped).toBe(0);
    const sent = JSON.stringify((sim.requests.at(-1)!.body as { messages: unknown[] }).messages);
    expect(sent).toContain(TASK);
    expect(sent).toContain('[CONTEXT COMPACTION]');
    expect(sim.requests.filter((request) => request.status !== 200)).toEqual([]);
  });

  it('learns a smaller real limit from the first overflow and never hits it again (README window 200,000)', async () => {
    const { client, sim } = await simulator({ contextLimit: 12_000 });
    const learned: number[] = [];
    const { requests } = await steadyPressure(
      client,
      { contextWindow: 200_000, onWindowLearned: ({ contextWindow }) => learned.push(contextWindow) },
      30,
    );
    expect(learned).toEqual([12_000]);
    expect(requests.filter((request) => request.status === 400)).toHaveLength(1);
    expect(sim.requests.at(-1)?.status).toBe(200);
  });
});
