import Anthropic from '@anthropic-ai/sdk';
import { compressorEngineFactory } from '@ctxhost/compressor';
import { createHost, withDefaults, type PartialConfig } from '@ctxhost/core';
import { createNativeCompactionEngine } from '@ctxhost/native-compaction';
import { startSimulator, type MessagesRequest, type Simulator, type SimulatorOptions } from '@ctxhost/simulator';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAnthropicCompactor } from './anthropic-compactor.js';
import { withContextManagement } from './with-context-management.js';

// The wrapper through the real SDK against the simulator: the Messages API as the caller uses it
// (create, create with stream: true, stream()), on core's stateless path.
const MODEL = 'claude-sonnet-4-6';
const FAST_RECOVERY: PartialConfig = {
  store: { kind: 'memory' },
  hooks: { 'anthropic-auto-compact': { initial_delay_ms: 0, max_delay_ms: 0 } },
};

const sims: Simulator[] = [];
let warnings: string[] = [];
beforeEach(() => {
  warnings = [];
  vi.spyOn(process, 'emitWarning').mockImplementation((warning: string | Error) => {
    warnings.push(String(warning));
  });
});
afterEach(async () => {
  vi.restoreAllMocks();
  for (const sim of sims.splice(0)) await sim.close();
});

async function simulator(options: SimulatorOptions = {}) {
  const sim = await startSimulator(options);
  sims.push(sim);
  return { sim, client: new Anthropic({ apiKey: 'test', baseURL: sim.url, maxRetries: 0 }) };
}

const messagesCalls = (sim: Simulator) => sim.requests.filter((request) => request.path === '/v1/messages');

/** A tool-reading conversation of about 10,000 tokens, ending in a question. */
function toolConversation(): Anthropic.MessageParam[] {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Read every file, then tell me what failed.' }];
  for (let index = 0; index < 12; index++)
    messages.push(
      { role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${index}`, name: 'read', input: { index } }] },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: `toolu_${index}`, content: `output ${index} `.repeat(300) }],
      },
    );
  messages.push({ role: 'assistant', content: 'Read them all.' }, { role: 'user', content: 'What failed?' });
  return messages;
}

describe('withContextManagement on the stateless path', () => {
  it('recovers an overflow of a streamed create: the caller reads the answer from the stream', async () => {
    const { sim, client } = await simulator({ contextLimit: 4_000 });
    const wrapped = withContextManagement(client, { config: FAST_RECOVERY, contextWindow: 1_000_000 });
    const stream = await wrapped.messages.create({
      model: MODEL,
      max_tokens: 100,
      messages: toolConversation(),
      stream: true,
    });
    let text = '';
    for await (const event of stream)
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    expect(text.length).toBeGreaterThan(0);
    expect(messagesCalls(sim).map((call) => call.status)).toEqual([400, 200]);
  });

  it('recovers an overflow of messages.stream(): finalMessage() is the answer', async () => {
    const { sim, client } = await simulator({ contextLimit: 4_000 });
    const wrapped = withContextManagement(client, { config: FAST_RECOVERY, contextWindow: 1_000_000 });
    const texts: string[] = [];
    const stream = wrapped.messages.stream({ model: MODEL, max_tokens: 100, messages: toolConversation() });
    stream.on('text', (text) => texts.push(text));
    const reply = await stream.finalMessage();
    expect(reply.content.some((block) => block.type === 'text' && block.text.length > 0)).toBe(true);
    expect(texts.join('').length).toBeGreaterThan(0);
    expect(messagesCalls(sim).map((call) => call.status)).toEqual([400, 200]);
  });

  // The API names no maximum in this form, so the cascade plans with the window it was told: a small overflow.
  it('recovers a stop at the window in a 200 (model_context_window_exceeded), complete and streamed', async () => {
    const probe = await simulator();
    await probe.client.messages.create({ model: MODEL, max_tokens: 100, messages: toolConversation() });
    const real = messagesCalls(probe.sim)[0]!.usage!.input_tokens;
    for (const stream of [false, true]) {
      const { sim, client } = await simulator({ contextLimit: Math.floor(real / 1.05), overflowStyle: 'stop_reason' });
      const wrapped = withContextManagement(client, { config: FAST_RECOVERY, contextWindow: 200_000 });
      const params = { model: MODEL, max_tokens: 100, messages: toolConversation() };
      const reply = stream
        ? await wrapped.messages.stream(params).finalMessage()
        : await wrapped.messages.create(params);
      expect(reply.content.some((block) => block.type === 'text' && block.text.length > 0)).toBe(true);
      expect(messagesCalls(sim).map((call) => call.stopReason)).toEqual(['model_context_window_exceeded', 'end_turn']);
    }
  });

  it('sends the request as the caller wrote it when the default host cannot be built, and says so once', async () => {
    const { sim, client } = await simulator();
    const wrapped = withContextManagement(client, { config: { context: { engine: 'no-such-engine' } } });
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'hello' }];
    for (const question of ['first?', 'second?']) {
      const reply = await wrapped.messages.create({
        model: MODEL,
        max_tokens: 50,
        messages: [...messages, { role: 'assistant', content: 'Hi.' }, { role: 'user', content: question }],
      });
      expect(reply.type).toBe('message');
    }
    expect(messagesCalls(sim).every((call) => call.status === 200)).toBe(true);
    // As written: no cache breakpoint was added.
    expect(JSON.stringify(messagesCalls(sim)[0]!.body)).not.toContain('cache_control');
    expect(warnings.filter((warning) => warning.includes('no-such-engine'))).toHaveLength(1);
  });

  it('passes a provider error it cannot recover to the caller as the SDK threw it', async () => {
    const { client } = await simulator();
    const wrapped = withContextManagement(client, { config: FAST_RECOVERY });
    await expect(
      wrapped.messages.create({ model: MODEL, max_tokens: 50, messages: [{ role: 'assistant', content: 'first' }] }),
    ).rejects.toBeInstanceOf(Anthropic.BadRequestError);
  });

  it('sends the caller’s own params where the hooks left them, and never changes the caller’s list', async () => {
    const { sim, client } = await simulator({ contextLimit: 4_000 });
    const wrapped = withContextManagement(client, { config: FAST_RECOVERY, contextWindow: 1_000_000 });
    const messages = toolConversation();
    messages.splice(
      1,
      0,
      { role: 'assistant', content: [{ type: 'text', text: 'On it.', citations: null }] },
      {
        role: 'user',
        content: 'Go.',
      },
    );
    const before = JSON.stringify(messages);
    await wrapped.messages.create({ model: MODEL, max_tokens: 100, system: 'be brief', messages });
    expect(JSON.stringify(messages)).toBe(before);
    const sent = (messagesCalls(sim).at(-1)!.body as MessagesRequest).messages;
    // Compacted (the last request answered), the opening kept as the caller wrote it, unknown fields and all.
    expect(messagesCalls(sim).map((call) => call.status)).toEqual([400, 200]);
    expect(sent[0]).toEqual(messages[0]);
    expect(JSON.stringify(sent)).toContain('"citations":null');
  });

  it('keeps withResponse() and the request id', async () => {
    const { client } = await simulator();
    const wrapped = withContextManagement(client, { config: FAST_RECOVERY });
    const { data, response, request_id } = await wrapped.messages
      .create({ model: MODEL, max_tokens: 50, messages: [{ role: 'user', content: 'hello' }] })
      .withResponse();
    expect(data.type).toBe('message');
    expect(response.status).toBe(200);
    expect(request_id).toMatch(/^req_/);
  });

  it('plans with the request’s output budget: a compaction made for a small max_tokens is not reused for a larger one that it leaves no room for', async () => {
    const window = 11_000;
    const { sim, client } = await simulator({
      models: { [MODEL]: { contextLimit: window, overflowStyle: 'input_plus_max_tokens' } },
    });
    const wrapped = withContextManagement(client, { config: FAST_RECOVERY, contextWindow: window });
    const paragraph = 'edited src/server/routes.ts and ran npm test, 3 failures in auth.test.ts; ';
    const messages: Anthropic.MessageParam[] = Array.from({ length: 30 }, (_, index): Anthropic.MessageParam[] => [
      { role: 'user', content: `step ${index}: ${paragraph.repeat(10)}` },
      { role: 'assistant', content: `done step ${index}: ${paragraph.repeat(4)}` },
    ]).flat();
    messages.push({ role: 'user', content: 'What is left?' });
    await wrapped.messages.create({ model: MODEL, max_tokens: 500, messages });
    await wrapped.messages.create({ model: MODEL, max_tokens: 9_000, messages });
    const calls = messagesCalls(sim);
    expect(calls.map((call) => call.status)).toEqual([200, 200]);
    const sent = calls.map(
      (call) =>
        (call.usage?.input_tokens ?? 0) +
        (call.usage?.cache_read_input_tokens ?? 0) +
        (call.usage?.cache_creation_input_tokens ?? 0),
    );
    expect(sent[0]! + 500).toBeLessThanOrEqual(window);
    expect(sent[1]! + 9_000).toBeLessThanOrEqual(window);
  });

  it('fixes an empty message the API refused and leaves a thinking-only assistant message as it is', async () => {
    const { sim, client } = await simulator();
    const wrapped = withContextManagement(client, { config: FAST_RECOVERY, contextWindow: 200_000 });
    const thinking = { type: 'thinking' as const, thinking: 'the failure is in auth', signature: 'sig_1' };
    const messages: Anthropic.MessageParam[] = [
      { role: 'user', content: 'Why does the build fail?' },
      { role: 'assistant', content: [thinking] },
      { role: 'user', content: '' },
      { role: 'assistant', content: 'Looking.' },
      { role: 'user', content: 'Go on.' },
    ];
    const reply = await wrapped.messages.create({ model: MODEL, max_tokens: 100, messages });
    expect(reply.content.length).toBeGreaterThan(0);
    const calls = messagesCalls(sim);
    expect(calls.map((call) => call.status)).toEqual([400, 200]);
    const sent = (calls[1]!.body as { messages: { role: string; content: unknown }[] }).messages;
    expect(sent[1]).toEqual({ role: 'assistant', content: [thinking] });
    expect(JSON.stringify(sent[2])).toContain('[user interrupted]');
  });

  it('says each deprecated option once, and still honours it', async () => {
    const { sim, client } = await simulator();
    const options = { caching: false, cacheTtl: '1h' as const, sessionId: 'old', config: FAST_RECOVERY };
    const wrapped = withContextManagement(client, options);
    withContextManagement(client, options);
    await wrapped.messages.create({
      model: MODEL,
      max_tokens: 50,
      system: 'be brief',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(JSON.stringify(messagesCalls(sim)[0]!.body)).not.toContain('cache_control');
    for (const name of ['caching', 'cacheTtl', 'sessionId'])
      expect(warnings.filter((warning) => warning.includes(`the ${name} option`))).toHaveLength(1);
  });
});

describe("withContextManagement and Anthropic's own context management", () => {
  const native = (section: Record<string, unknown>): PartialConfig => ({
    ...FAST_RECOVERY,
    hooks: { ...FAST_RECOVERY.hooks, 'native-compaction': section },
  });
  const paragraph = 'edited src/server/routes.ts and ran npm test, 3 failures in auth.test.ts; ';
  const history = (turns: number, size: number): Anthropic.MessageParam[] =>
    Array.from({ length: turns }, (_, index): Anthropic.MessageParam[] => [
      { role: 'user', content: `step ${index}: ${paragraph.repeat(size)}` },
      { role: 'assistant', content: `done step ${index}` },
    ]).flat();

  it('sends context editing as context_management with its beta', async () => {
    const { sim, client } = await simulator();
    const wrapped = withContextManagement(client, {
      config: native({ anthropic: { clear_tool_uses: { enabled: true, trigger_tokens: 30_000, keep_tool_uses: 2 } } }),
    });
    await wrapped.messages.create({
      model: MODEL,
      max_tokens: 64,
      messages: [...history(2, 2), { role: 'user', content: 'go on' }],
    });
    const call = messagesCalls(sim)[0]!;
    expect((call.body as Record<string, unknown>)['context_management']).toEqual({
      edits: [
        {
          type: 'clear_tool_uses_20250919',
          trigger: { type: 'input_tokens', value: 30_000 },
          keep: { type: 'tool_uses', value: 2 },
        },
      ],
    });
    expect(call.betas).toContain('context-management-2025-06-27');
    expect(call.status).toBe(200);
  });

  it('threshold compaction: the server compacts, and the block the caller keeps goes back to it as it came', async () => {
    const { sim, client } = await simulator();
    const wrapped = withContextManagement(client, {
      config: native({ anthropic: { compaction: { enabled: true, trigger_tokens: 50_000 } } }),
    });
    const messages: Anthropic.MessageParam[] = [...history(40, 100), { role: 'user', content: 'what is left?' }];
    const first = await wrapped.messages.create({ model: MODEL, max_tokens: 64, messages });
    expect(messagesCalls(sim)[0]!.betas).toContain('compact-2026-01-12');
    // The non-beta SDK types have no compaction block: the reply carries it as the API sent it.
    const returned = (first.content as { type: string }[]).filter((block) => block.type === 'compaction');
    expect(returned).toHaveLength(1);
    await wrapped.messages.create({
      model: MODEL,
      max_tokens: 64,
      messages: [
        ...messages,
        { role: 'assistant', content: first.content },
        { role: 'user', content: 'go on with auth.test.ts' },
      ],
    });
    const second = messagesCalls(sim).at(-1)!;
    const blocks = (second.body as MessagesRequest).messages.flatMap((message) =>
      typeof message.content === 'string' ? [] : message.content,
    );
    expect(blocks.filter((block) => block.type === 'compaction')).toEqual(
      returned.map((block) => expect.objectContaining(block)),
    );
    expect(second.status).toBe(200);
    expect(second.usage!.input_tokens).toBeLessThan(10_000);
  });

  it('on-demand compaction through the host engine: the span ctxhost chooses, the block first, its beta on the call', async () => {
    const { sim, client } = await simulator();
    const window = 20_000;
    const host = createHost({
      config: { model: { contextLength: window } },
      engine: createNativeCompactionEngine({
        compactor: createAnthropicCompactor(client, { model: MODEL }),
        fallback: compressorEngineFactory({ config: withDefaults({ model: { contextLength: window } }) }),
        keepTailTokens: 2_000,
      }),
    });
    const wrapped = withContextManagement(client, { host, contextWindow: window });
    await wrapped.messages.create({
      model: MODEL,
      max_tokens: 64,
      messages: [...history(40, 20), { role: 'user', content: 'what is left?' }],
    });
    const calls = messagesCalls(sim);
    expect(calls.some((call) => (call.body as Record<string, unknown>)['compaction'] !== undefined)).toBe(true);
    const sent = calls.at(-1)!;
    const blocks = (sent.body as MessagesRequest).messages.flatMap((message) =>
      typeof message.content === 'string' ? [] : message.content,
    );
    expect(blocks.filter((block) => block.type === 'compaction')).toHaveLength(1);
    expect(sent.betas).toContain('compact-2026-09-04');
    expect(sent.status).toBe(200);
    await host.dispose();
  });
});
