import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, wrapLanguageModel, type ModelMessage } from 'ai';
import { contextManagementMiddleware } from './index.js';
import { NO_READABLE_COPY, type PartialConfig } from '@ctxhost/core';
import { startSimulator, type MessagesRequest, type Simulator } from '@ctxhost/simulator';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Native compaction through the AI SDK's real providers against the simulator: the provider's own
// options carry what `hooks.native-compaction` asks for, and the compaction the provider returns goes
// back to it as it came.

const MODEL = 'claude-sonnet-4-6';
const sims: Simulator[] = [];
afterEach(async () => {
  for (const sim of sims.splice(0)) await sim.close();
});
async function simulator(): Promise<Simulator> {
  const sim = await startSimulator();
  sims.push(sim);
  return sim;
}

const native = (section: Record<string, unknown>): PartialConfig => ({
  store: { kind: 'memory' },
  hooks: { 'native-compaction': section },
});

const paragraph = 'edited src/server/routes.ts and ran npm test, 3 failures in auth.test.ts; ';
function history(turns: number, size: number): ModelMessage[] {
  return Array.from({ length: turns }, (_, index): ModelMessage[] => [
    { role: 'user', content: `step ${index}: ${paragraph.repeat(size)}` },
    { role: 'assistant', content: `done step ${index}` },
  ]).flat();
}

const messagesBodies = (sim: Simulator) =>
  sim.requests.filter((request) => request.path === '/v1/messages').map((request) => request.body as MessagesRequest);

describe('AI SDK middleware + @ai-sdk/anthropic', () => {
  const aiSdkModel = (sim: Simulator, config: PartialConfig) =>
    wrapLanguageModel({
      model: createAnthropic({ baseURL: `${sim.url}/v1`, apiKey: 'test' })(MODEL),
      middleware: contextManagementMiddleware({ config, contextWindow: 200_000 }),
    });

  it('sends context editing as the provider option contextManagement: the edits and their beta reach the API', async () => {
    const sim = await simulator();
    const model = aiSdkModel(
      sim,
      native({
        anthropic: {
          clear_tool_uses: { enabled: true, trigger_tokens: 30_000, keep_tool_uses: 2, clear_at_least_tokens: 5_000 },
        },
      }),
    );
    await generateText({
      model,
      messages: [...history(2, 2), { role: 'user', content: 'go on' }],
      maxOutputTokens: 64,
    });
    const [body] = messagesBodies(sim);
    expect(body!['context_management']).toEqual({
      edits: [
        {
          type: 'clear_tool_uses_20250919',
          trigger: { type: 'input_tokens', value: 30_000 },
          keep: { type: 'tool_uses', value: 2 },
          clear_at_least: { type: 'input_tokens', value: 5_000 },
        },
      ],
    });
    expect(sim.requests[0]!.betas).toContain('context-management-2025-06-27');
  });

  it('threshold compaction: the server compacts, and the block it returned goes back to it as a compaction block', async () => {
    const sim = await simulator();
    const model = aiSdkModel(sim, native({ anthropic: { compaction: { enabled: true, trigger_tokens: 50_000 } } }));
    const messages: ModelMessage[] = [...history(40, 100), { role: 'user', content: 'what is left?' }];
    const first = await generateText({ model, messages, maxOutputTokens: 64 });
    expect(sim.requests[0]!.betas).toContain('compact-2026-01-12');
    const returned = first.response.messages.flatMap((message): { providerOptions?: Record<string, unknown> }[] =>
      typeof message.content === 'string' ? [] : (message.content as { providerOptions?: Record<string, unknown> }[]),
    );
    const marked = returned.filter(
      (part) => (part.providerOptions?.['anthropic'] as { type?: string } | undefined)?.type === 'compaction',
    );
    expect(marked).toHaveLength(1);

    await generateText({
      model,
      messages: [...messages, ...first.response.messages, { role: 'user', content: 'go on with auth.test.ts' }],
      maxOutputTokens: 64,
    });
    const second = messagesBodies(sim).at(-1)!;
    const blocks = second.messages.flatMap((message) => (typeof message.content === 'string' ? [] : message.content));
    expect(blocks.filter((block) => block.type === 'compaction')).toHaveLength(1);
    // The server dropped what the block summarizes (over 50,000 tokens): the second prompt is the summary and what follows.
    expect(sim.requests.at(-1)!.usage!.input_tokens).toBeLessThan(10_000);
  });

  it('says once, and sends nothing native, where the provider cannot carry it (Chat Completions)', async () => {
    const sim = await simulator();
    const warnings: string[] = [];
    // Collected, not printed: this warning is what the test expects (a clean test log).
    const said = vi.spyOn(process, 'emitWarning').mockImplementation((warning) => void warnings.push(String(warning)));
    try {
      const model = wrapLanguageModel({
        model: createOpenAICompatible({ name: 'openai', baseURL: `${sim.url}/v1`, apiKey: 'test' })('gpt-5'),
        middleware: contextManagementMiddleware({
          config: native({ openai: { inline: { enabled: true, compact_threshold: 100_000 } } }),
          contextWindow: 200_000,
        }),
      });
      await generateText({ model, messages: [{ role: 'user', content: 'hello' }], maxOutputTokens: 32 });
      await generateText({ model, messages: [{ role: 'user', content: 'hello again' }], maxOutputTokens: 32 });
    } finally {
      said.mockRestore();
    }
    const body = sim.requests.at(-1)!.body as Record<string, unknown>;
    expect(body['context_management']).toBeUndefined();
    expect(warnings.filter((text) => text.includes('native compaction not sent'))).toHaveLength(1);
  });
});

describe('AI SDK middleware + @ai-sdk/openai (the Responses model)', () => {
  const inline = native({ openai: { inline: { enabled: true, compact_threshold: 2_000 } } });
  // store: false: the Responses model sends whole items, not references to items OpenAI stored.
  const unstored = { openai: { store: false } };
  type Returned = { type: string; kind?: string; providerOptions?: { openai?: Record<string, unknown> } };
  const partsOf = (messages: readonly ModelMessage[]) =>
    messages.flatMap((message): Returned[] =>
      typeof message.content === 'string' ? [] : (message.content as unknown as Returned[]),
    );

  it('sends inline compaction as the provider option contextManagement; the item goes back exactly, then as its readable copy to Anthropic', async () => {
    const sim = await simulator();
    const middleware = contextManagementMiddleware({ config: inline, contextWindow: 200_000 });
    const gpt = wrapLanguageModel({
      model: createOpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'test' }).responses('gpt-5.5'),
      middleware,
    });
    const messages: ModelMessage[] = [...history(12, 10), { role: 'user', content: 'what is left?' }];
    const first = await generateText({ model: gpt, messages, maxOutputTokens: 64, providerOptions: unstored });
    const firstBody = sim.requests[0]!.body as Record<string, unknown>;
    expect(sim.requests[0]!.path).toBe('/v1/responses');
    expect(firstBody['context_management']).toEqual([{ type: 'compaction', compact_threshold: 2_000 }]);
    const item = partsOf(first.response.messages).find((part) => part.kind === 'openai.compaction');
    expect(item?.providerOptions?.openai).toMatchObject({
      itemId: expect.any(String),
      encryptedContent: expect.any(String),
    });

    const next: ModelMessage[] = [...messages, ...first.response.messages, { role: 'user', content: 'go on' }];
    await generateText({ model: gpt, messages: next, maxOutputTokens: 64, providerOptions: unstored });
    const input = (sim.requests.at(-1)!.body as { input: Record<string, unknown>[] }).input;
    expect(input.filter((entry) => entry['type'] === 'compaction')).toEqual([
      {
        type: 'compaction',
        id: item!.providerOptions!.openai!['itemId'],
        encrypted_content: item!.providerOptions!.openai!['encryptedContent'],
      },
    ]);
    // The server reads the item in place of everything before it: the second prompt is the summary and what follows.
    expect(sim.requests.at(-1)!.usage!.input_tokens).toBeLessThan(1_000);

    // The same conversation on Anthropic: the encrypted item goes as ctxhost's readable copy of what it covers.
    const claude = wrapLanguageModel({
      model: createAnthropic({ baseURL: `${sim.url}/v1`, apiKey: 'test' })(MODEL),
      middleware,
    });
    await generateText({ model: claude, messages: next, maxOutputTokens: 64 });
    const toAnthropic = sim.requests.at(-1)!;
    expect(toAnthropic.path).toBe('/v1/messages');
    expect(toAnthropic.status).toBe(200);
    const sent = JSON.stringify(toAnthropic.body);
    expect(sent).not.toContain(String(item!.providerOptions!.openai!['encryptedContent']));
    expect(sent).not.toContain(NO_READABLE_COPY);
    const assistant = (toAnthropic.body as MessagesRequest).messages.filter((message) => message.role === 'assistant');
    const copy = assistant.flatMap((message) => (typeof message.content === 'string' ? [] : message.content)).at(-2);
    expect(copy).toMatchObject({ type: 'text', text: expect.stringContaining('step 0') });
  });

  it('says once, and sends nothing native, through the Chat Completions model', async () => {
    const sim = await simulator();
    const warnings: string[] = [];
    // Collected, not printed: this warning is what the test expects (a clean test log).
    const said = vi.spyOn(process, 'emitWarning').mockImplementation((warning) => void warnings.push(String(warning)));
    try {
      const model = wrapLanguageModel({
        model: createOpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'test' }).chat('gpt-5.5'),
        middleware: contextManagementMiddleware({ config: inline, contextWindow: 200_000 }),
      });
      await generateText({ model, messages: [{ role: 'user', content: 'hello' }], maxOutputTokens: 32 });
      await generateText({ model, messages: [{ role: 'user', content: 'hello again' }], maxOutputTokens: 32 });
    } finally {
      said.mockRestore();
    }
    expect(sim.requests.at(-1)!.path).toBe('/v1/chat/completions');
    expect((sim.requests.at(-1)!.body as Record<string, unknown>)['context_management']).toBeUndefined();
    expect(
      warnings.filter((text) => text.includes('openai.chat') && text.includes('native compaction not sent')),
    ).toHaveLength(1);
  });
});
