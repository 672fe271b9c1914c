import OpenAI from 'openai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compressorEngineFactory } from '@ctxhost/compressor';
import { createHost, withDefaults, type PartialConfig } from '@ctxhost/core';
import { createNativeCompactionEngine } from '@ctxhost/native-compaction';
import { createOpenAICompactor, withContextManagement } from '@ctxhost/openai';
import { openSummary, startSimulator, type Simulator } from '@ctxhost/simulator';

// The OpenAI SDK wrapper on responses.create, through the real openai SDK against the simulator: inline
// compaction as the turn's context_management, the encrypted item sent back as it came, streaming, the
// readable copy on invalid_encrypted_content.
const MODEL = 'gpt-5.5';
const sims: Simulator[] = [];
afterEach(async () => {
  for (const sim of sims.splice(0)) await sim.close();
});

const inline = {
  store: { kind: 'memory' },
  hooks: { 'native-compaction': { openai: { inline: { enabled: true, compact_threshold: 2_000 } } } },
} as PartialConfig;

const paragraph = 'edited src/server/routes.ts and ran npm test, 3 failures in auth.test.ts; ';
const history = (): OpenAI.Responses.ResponseInputItem[] =>
  Array.from({ length: 12 }, (_, index): OpenAI.Responses.ResponseInputItem[] => [
    { role: 'user', content: `step ${index}: ${paragraph.repeat(10)}` },
    { role: 'assistant', content: `done step ${index}` },
  ]).flat();

async function rig(config: PartialConfig = inline) {
  const sim = await startSimulator();
  sims.push(sim);
  const raw = new OpenAI({ apiKey: 'test', baseURL: `${sim.url}/v1`, maxRetries: 0 });
  return { sim, client: withContextManagement(raw, { config, contextWindow: 200_000 }) };
}

function warningsDuring(): { warnings: string[]; stop(): void } {
  const warnings: string[] = [];
  // Collected, not printed: the warning is what the test expects (a clean test log).
  const spy = vi.spyOn(process, 'emitWarning').mockImplementation((warning) => void warnings.push(String(warning)));
  return { warnings, stop: () => spy.mockRestore() };
}

describe('withContextManagement on responses.create', () => {
  it('sends inline compaction as context_management, and the compaction item the server returned goes back as it came', async () => {
    const { sim, client } = await rig();
    const input = [...history(), { role: 'user' as const, content: 'what is left?' }];
    const first = await client.responses.create({ model: MODEL, instructions: 'You are careful.', input });
    const body = sim.requests[0]!.body as Record<string, unknown>;
    expect(body['context_management']).toEqual([{ type: 'compaction', compact_threshold: 2_000 }]);
    expect(body['instructions']).toBe('You are careful.');
    const item = first.output.find((entry) => entry.type === 'compaction');
    expect(item).toMatchObject({ type: 'compaction', encrypted_content: expect.any(String) });

    await client.responses.create({
      model: MODEL,
      instructions: 'You are careful.',
      input: [...input, ...(first.output as OpenAI.Responses.ResponseInputItem[]), { role: 'user', content: 'go on' }],
    });
    const sent = (sim.requests.at(-1)!.body as { input: { type?: string; encrypted_content?: string }[] }).input;
    expect(sent.filter((entry) => entry.type === 'compaction')).toEqual([
      expect.objectContaining({ encrypted_content: (item as { encrypted_content: string }).encrypted_content }),
    ]);
    expect(sim.requests.map((request) => request.status)).toEqual([200, 200]);
  });

  it('keeps a context_management the caller set', async () => {
    const { sim, client } = await rig();
    await client.responses.create({
      model: MODEL,
      input: 'hello',
      context_management: [{ type: 'compaction', compact_threshold: 5_000 }],
    });
    expect((sim.requests[0]!.body as Record<string, unknown>)['context_management']).toEqual([
      { type: 'compaction', compact_threshold: 5_000 },
    ]);
  });

  it('sends nothing native on chat.completions.create, and says so once', async () => {
    const { sim, client } = await rig();
    const said = warningsDuring();
    try {
      await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hello' }] });
      await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hello again' }] });
    } finally {
      said.stop();
    }
    expect((sim.requests.at(-1)!.body as Record<string, unknown>)['context_management']).toBeUndefined();
    expect(said.warnings.filter((text) => text.includes('inline compaction needs responses.create'))).toHaveLength(1);
  });

  it('streams, recovering an overflow before the first event', async () => {
    const sim = await startSimulator({ contextLimit: 3_000 });
    sims.push(sim);
    const client = withContextManagement(new OpenAI({ apiKey: 'test', baseURL: `${sim.url}/v1`, maxRetries: 0 }), {
      config: {
        store: { kind: 'memory' },
        hooks: { 'anthropic-auto-compact': { initial_delay_ms: 0, max_delay_ms: 0 } },
      },
    });
    const stream = await client.responses.create({
      model: 'gpt-4o',
      input: [...history(), ...history(), { role: 'user', content: 'what is left?' }],
      max_output_tokens: 100,
      stream: true,
    });
    let text = '';
    for await (const event of stream) if (event.type === 'response.output_text.delta') text += event.delta;
    expect(text.length).toBeGreaterThan(0);
    expect(sim.requests.map((request) => request.status)).toEqual([400, 200]);
  });

  it('on invalid_encrypted_content (an item another key made), sends the readable copy in its place and says so', async () => {
    const { sim, client } = await rig();
    const said = warningsDuring();
    try {
      const reply = await client.responses.create({
        model: MODEL,
        input: [
          { type: 'compaction', id: 'cmp_other', encrypted_content: 'gAAAAB-made-under-another-organisation' },
          { role: 'user', content: 'go on with auth.test.ts' },
        ],
      });
      expect(reply.output_text.length).toBeGreaterThan(0);
    } finally {
      said.stop();
    }
    expect(sim.requests.map((request) => request.status)).toEqual([400, 200]);
    const input = (sim.requests[1]!.body as { input: { type?: string }[] }).input;
    expect(input.filter((entry) => entry.type === 'compaction')).toEqual([]);
    expect(said.warnings.filter((text) => text.includes('sent again with its readable copy'))).toHaveLength(1);
  });

  it('steps aside for previous_response_id (the server holds the rest of the conversation)', async () => {
    const { sim, client } = await rig();
    const error = await client.responses
      .create({ model: MODEL, input: 'go on', previous_response_id: 'resp_1' })
      .catch((caught: unknown) => caught);
    // The simulator keeps no responses: the request went out as the caller sent it and its own error came back.
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((sim.requests[0]!.body as Record<string, unknown>)['previous_response_id']).toBe('resp_1');
    expect((sim.requests[0]!.body as Record<string, unknown>)['context_management']).toBeUndefined();
  });

  it('carries standalone responses/compact (the item the host engine made) to responses.create exactly', async () => {
    const sim = await startSimulator();
    sims.push(sim);
    const raw = new OpenAI({ apiKey: 'test', baseURL: `${sim.url}/v1`, maxRetries: 0 });
    const window = 12_000;
    const host = createHost({
      config: { model: { contextLength: window } },
      engine: createNativeCompactionEngine({
        compactor: () => createOpenAICompactor(raw, { model: 'gpt-5.2' }),
        fallback: compressorEngineFactory({ config: withDefaults({ model: { contextLength: window } }) }),
        trigger: 0.5,
        keepTailTokens: 1_500,
      }),
    });
    const client = withContextManagement(raw, { host, contextWindow: window });
    const work = (step: number) =>
      `step ${step}: edit src/billing/invoice-${step}.ts; ${'the invoice totals must round half-even; '.repeat(60)}`;
    let input: OpenAI.Responses.ResponseInputItem[] = [];
    const compactions = () => sim.requests.filter((request) => request.path === '/v1/responses/compact').length;
    for (let step = 0; step < 12 && compactions() === 0; step++) {
      input = [...input, { role: 'user', content: work(step) }];
      const response = await client.responses.create({ model: 'gpt-5.2', input, max_output_tokens: 64, store: false });
      input = [...input, ...(response.output as OpenAI.Responses.ResponseInputItem[])];
    }
    expect(compactions()).toBe(1);
    await client.responses.create({
      model: 'gpt-5.2',
      input: [...input, { role: 'user', content: 'go on' }],
      store: false,
    });
    const sent = (sim.requests.at(-1)!.body as { input: Record<string, unknown>[] }).input;
    const items = sent.filter((item) => item['type'] === 'compaction');
    // The item responses/compact returned, sealed by the simulator: it opens to the summary of the span.
    expect(items).toHaveLength(1);
    expect(openSummary(items[0]!['encrypted_content'])).toContain('invoice');
    expect(JSON.stringify(sent)).not.toContain(work(0));
    expect(sim.requests.at(-1)!.status).toBe(200);
  });
});
