import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, type AgentTool } from '@ctxhost/anthropic';
import { createHost, openAICompactionItemOf, openAICompactionPart, type ModelRequest } from '@ctxhost/core';
import { createNativeCompactionPlugin } from '@ctxhost/native-compaction';
import { createOpenAIModel, createOpenAIResponsesModel } from '@ctxhost/openai';
import { startSimulator, type Simulator } from '@ctxhost/simulator';

// @ctxhost/openai's Responses model through the real openai SDK against the simulator's /v1/responses:
// the carrier of OpenAI's inline compaction, and the readable copy when OpenAI refuses an item.
let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});
async function simulator() {
  sim = await startSimulator();
  return { sim, client: new OpenAI({ apiKey: 'test', baseURL: `${sim.url}/v1`, maxRetries: 0 }) };
}

const MODEL = 'gpt-5.5';
const paragraph = 'edited src/server/routes.ts and ran npm test, 3 failures in auth.test.ts; ';
const weather: AgentTool = {
  definition: {
    name: 'get_weather',
    description: 'Weather for a city',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
  run: async (input) => `sunny in ${(input as { city: string }).city}, 18°C`,
};
const inline = () =>
  createNativeCompactionPlugin({ config: { openai: { inline: { enabled: true, compact_threshold: 2_000 } } } });
const inputOf = (index: number) =>
  (sim!.requests[index]!.body as { input: { type?: string; role?: string; content?: unknown }[] }).input;

describe('createOpenAIResponsesModel', () => {
  it('carries inline compaction: context_management goes out, the encrypted item comes back and is sent again exactly', async () => {
    const { sim, client } = await simulator();
    const host = createHost({ plugins: [inline()] });
    const agent = createAgent({
      host,
      model: createOpenAIResponsesModel(client, { model: MODEL, contextWindow: 200_000 }),
      tools: [weather],
      system: 'You are helpful.',
    });
    await agent.send('s1', `${paragraph.repeat(200)} What is the weather in Oslo?`);
    const first = sim.requests[0]!.body as { context_management?: unknown; tools?: unknown[] };
    expect(first.context_management).toEqual([{ type: 'compaction', compact_threshold: 2_000 }]);
    expect(first.tools).toHaveLength(1);
    const session = await host.session('s1');
    const items = session
      .messages()
      .flatMap((message) => message.parts)
      .flatMap((part) => openAICompactionItemOf(part) ?? []);
    expect(items).toHaveLength(1);
    // The item got ctxhost's readable copy of what the server compacted (for another provider, or a refused item).
    const part = session
      .messages()
      .flatMap((message) => message.parts)
      .find((candidate) => openAICompactionItemOf(candidate) !== undefined);
    expect(part?.type === 'text' ? part.text : '').toContain('routes.ts');

    await agent.send('s1', 'And in Bergen?');
    const sent = inputOf(sim.requests.length - 1).filter((item) => item.type === 'compaction');
    expect(sent).toEqual([expect.objectContaining({ encrypted_content: items[0]!.encrypted_content })]);
    expect(sim.requests.every((request) => request.status === 200)).toBe(true);
  });

  it('on invalid_encrypted_content (an item another key made), sends the readable copy in its place and is told', async () => {
    const { sim, client } = await simulator();
    const told: string[] = [];
    const model = createOpenAIResponsesModel(client, {
      model: MODEL,
      onReadableCopy: ({ message }) => void told.push(message),
    });
    const foreign = openAICompactionPart(
      { type: 'compaction', encrypted_content: 'gAAAAB-made-under-another-organisation', id: 'cmp_other' },
      'm1:0',
      '## Goal\nFix the 3 failing tests in auth.test.ts.',
    );
    const request: ModelRequest = {
      sessionId: 's',
      model: MODEL,
      maxTokens: 64,
      messages: [
        { id: 'm0', role: 'user', parts: [{ id: 'm0:0', type: 'text', text: 'Fix the tests.' }] },
        { id: 'm1', role: 'assistant', parts: [foreign] },
        { id: 'm2', role: 'user', parts: [{ id: 'm2:0', type: 'text', text: 'Go on.' }] },
      ],
    };
    const reply = await model.create(request);
    expect(reply.stopReason).toBe('end_turn');
    expect(sim.requests.map((entry) => entry.status)).toEqual([400, 200]);
    expect(sim.requests[0]!.error).toMatch(/could not be verified/);
    expect(told).toHaveLength(1);
    const retried = inputOf(1);
    expect(retried.some((item) => item.type === 'compaction')).toBe(false);
    expect(JSON.stringify(retried)).toContain('Fix the 3 failing tests in auth.test.ts.');
  });

  it('Chat Completions has no carrier: createOpenAIModel leaves context_management out', async () => {
    const { sim, client } = await simulator();
    const host = createHost({ plugins: [inline()] });
    const agent = createAgent({ host, model: createOpenAIModel(client, { model: MODEL }), system: 'You are helpful.' });
    await agent.send('s1', 'hello');
    expect(sim.requests[0]!.path).toBe('/v1/chat/completions');
    expect(sim.requests[0]!.body).not.toHaveProperty('context_management');
  });
});
