import Anthropic from '@anthropic-ai/sdk';
import { createAnthropic } from '@ai-sdk/anthropic';
import { generateText, wrapLanguageModel, type ModelMessage } from 'ai';
import { contextManagementMiddleware } from '@ctxhost/ai-sdk';
import { createAnthropicCompactor } from '@ctxhost/anthropic';
import { compressorEngineFactory } from '@ctxhost/compressor';
import { createHost, withDefaults } from '@ctxhost/core';
import { createNativeCompactionEngine } from '@ctxhost/native-compaction';
import { startSimulator, type MessagesRequest, type Simulator } from '@ctxhost/simulator';
import { afterEach, describe, expect, it } from 'vitest';

// On-demand compaction is a context engine: an integration whose host has it uses it. Through the AI
// SDK middleware and @ai-sdk/anthropic against the simulator: ctxhost has Anthropic compact the span it
// chooses, and the block goes out through the AI SDK's own compaction part.
const MODEL = 'claude-sonnet-4-6';
let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const paragraph = 'edited src/server/routes.ts and ran npm test, 3 failures in auth.test.ts; ';
const history = (turns: number): ModelMessage[] =>
  Array.from({ length: turns }, (_, index): ModelMessage[] => [
    { role: 'user', content: `step ${index}: ${paragraph.repeat(20)}` },
    { role: 'assistant', content: `done step ${index}` },
  ]).flat();

describe('on-demand compaction through the AI SDK middleware (the host engine)', () => {
  it('compacts the span ctxhost chooses with Anthropic, and the model call sends the block first', async () => {
    sim = await startSimulator();
    const window = 20_000;
    const host = createHost({
      config: { model: { contextLength: window } },
      engine: createNativeCompactionEngine({
        compactor: createAnthropicCompactor(new Anthropic({ apiKey: 'test', baseURL: sim.url, maxRetries: 0 }), {
          model: MODEL,
        }),
        fallback: compressorEngineFactory({ config: withDefaults({ model: { contextLength: window } }) }),
        keepTailTokens: 2_000,
      }),
    });
    const model = wrapLanguageModel({
      model: createAnthropic({ baseURL: `${sim.url}/v1`, apiKey: 'test' })(MODEL),
      middleware: contextManagementMiddleware({ host, contextWindow: window }),
    });
    await generateText({
      model,
      messages: [...history(40), { role: 'user', content: 'what is left?' }],
      maxOutputTokens: 64,
    });

    const calls = sim.requests.filter((request) => request.path === '/v1/messages');
    const compaction = calls.find((request) => (request.body as Record<string, unknown>)['compaction'] !== undefined);
    expect(compaction).toBeDefined();
    const sent = calls.at(-1)!.body as MessagesRequest;
    const blocks = sent.messages.flatMap((message) => (typeof message.content === 'string' ? [] : message.content));
    expect(blocks.filter((block) => block.type === 'compaction')).toHaveLength(1);
    expect(calls.at(-1)!.status).toBe(200);
    await host.dispose();
  });
});
