import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { Agent } from '@mastra/core/agent';
import type { MastraModelConfig } from '@mastra/core/llm';
import { noopLogger } from '@mastra/core/logger';
import type { PartialConfig } from '@ctxhost/core';
import { startSimulator, type MessagesRequest, type Simulator } from '@ctxhost/simulator';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createContextManagementProcessor } from './index.js';

// Native compaction through a real Mastra Agent on the AI SDK's real providers against the simulator:
// processInputStep puts what `hooks.native-compaction` asks for in the provider's own options, and the
// compaction the provider returns goes back to it on the next call.

const sims: Simulator[] = [];
afterEach(async () => {
  for (const sim of sims.splice(0)) await sim.close();
});
async function simulator(): Promise<Simulator> {
  const sim = await startSimulator();
  sims.push(sim);
  return sim;
}

type Messages = Parameters<Agent['generate']>[0];
type Turn = { role: 'user' | 'assistant'; content: unknown };

const native = (section: Record<string, unknown>, extra: PartialConfig = {}): PartialConfig => ({
  store: { kind: 'memory' },
  hooks: { 'native-compaction': section },
  ...extra,
});

/** A Mastra agent on `model` with the ctxhost processor. (The AI SDK providers' LanguageModelV4 type is a newer patch than Mastra's; the objects are the same at run time.) */
function agentOn(model: unknown, config: PartialConfig): Agent {
  const processor = createContextManagementProcessor({ config, contextWindow: 200_000 });
  const agent = new Agent({
    id: 'engineer',
    name: 'engineer',
    instructions: 'You are a careful engineer.',
    model: model as MastraModelConfig,
    inputProcessors: [processor],
    errorProcessors: [processor],
    maxProcessorRetries: 3,
  });
  agent.__setLogger(noopLogger);
  return agent;
}

const paragraph = 'edited src/server/routes.ts and ran npm test, 3 failures in auth.test.ts; ';
function history(turns: number, size: number): Turn[] {
  return Array.from({ length: turns }, (_, index): Turn[] => [
    { role: 'user', content: `step ${index}: ${paragraph.repeat(size)}` },
    { role: 'assistant', content: `done step ${index}` },
  ]).flat();
}

async function generate(agent: Agent, messages: Turn[], providerOptions?: Record<string, Record<string, unknown>>) {
  const result = await agent.generate(messages as Messages, {
    modelSettings: { maxOutputTokens: 64 },
    ...(providerOptions === undefined ? {} : { providerOptions: providerOptions as never }),
  });
  return result.response.messages as unknown as Turn[];
}

const anthropic = (sim: Simulator) =>
  createAnthropic({ baseURL: `${sim.url}/v1`, apiKey: 'test' })('claude-sonnet-4-6');
const messagesBodies = (sim: Simulator) =>
  sim.requests.filter((request) => request.path === '/v1/messages').map((request) => request.body as MessagesRequest);

describe('Mastra processor + @ai-sdk/anthropic', () => {
  it('sends context editing as the provider option contextManagement: the edits and their beta reach the API', async () => {
    const sim = await simulator();
    const agent = agentOn(
      anthropic(sim),
      native({
        anthropic: {
          clear_thinking: { enabled: true, keep_turns: 2 },
          clear_tool_uses: { enabled: true, trigger_tokens: 30_000, keep_tool_uses: 2, clear_at_least_tokens: 5_000 },
        },
      }),
    );
    await generate(agent, [...history(2, 2), { role: 'user', content: 'go on' }]);
    const [body] = messagesBodies(sim);
    expect(body!['context_management']).toEqual({
      edits: [
        { type: 'clear_thinking_20251015', keep: { type: 'thinking_turns', value: 2 } },
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

  it('threshold compaction: the client steps back, the server compacts, and its block goes back as a compaction block', async () => {
    const sim = await simulator();
    // Without withServerFirst the client would compact from 30% of the window; the server's trigger (50,000) comes first.
    const agent = agentOn(
      anthropic(sim),
      native(
        { anthropic: { compaction: { enabled: true, trigger_tokens: 50_000 } } },
        { compression: { threshold: 0.3 } },
      ),
    );
    const messages: Turn[] = [...history(40, 100), { role: 'user', content: 'what is left?' }];
    const reply = await generate(agent, messages);
    expect(sim.requests[0]!.betas).toContain('compact-2026-01-12');
    expect(messagesBodies(sim)[0]!['context_management']).toEqual({
      edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: 50_000 } }],
    });
    // The server read the whole conversation (over 100,000 tokens) and compacted it.
    expect(sim.requests[0]!.usage!.iterations?.[0]).toMatchObject({
      type: 'compaction',
      input_tokens: expect.toSatisfy((tokens: number) => tokens > 100_000),
    });

    await generate(agent, [...messages, ...reply, { role: 'user', content: 'go on with auth.test.ts' }]);
    const second = messagesBodies(sim).at(-1)!;
    const blocks = second.messages.flatMap((message) => (typeof message.content === 'string' ? [] : message.content));
    expect(blocks.filter((block) => block.type === 'compaction')).toHaveLength(1);
    expect(sim.requests.at(-1)!.status).toBe(200);
    // The server dropped what the block summarizes: the second prompt is the summary and what follows.
    expect(sim.requests.at(-1)!.usage!.input_tokens).toBeLessThan(10_000);
  });
});

describe('Mastra processor + @ai-sdk/openai', () => {
  it('sends no inline compaction, and says why once: Mastra drops the compaction item from its messages', async () => {
    const sim = await simulator();
    const warnings: string[] = [];
    // Collected, not printed: this warning is what the test expects (a clean test log).
    const said = vi.spyOn(process, 'emitWarning').mockImplementation((warning) => void warnings.push(String(warning)));
    let reply: Turn[];
    try {
      const agent = agentOn(
        createOpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'test' }).responses('gpt-5.5'),
        native({ openai: { inline: { enabled: true, compact_threshold: 2_000 } } }),
      );
      const messages: Turn[] = [...history(12, 10), { role: 'user', content: 'what is left?' }];
      // store: false: the Responses model sends whole items, not references to items OpenAI stored.
      reply = await generate(agent, messages, { openai: { store: false } });
      await generate(agent, [...messages, ...reply, { role: 'user', content: 'go on' }], { openai: { store: false } });
    } finally {
      said.mockRestore();
    }
    for (const request of sim.requests) {
      expect(request.path).toBe('/v1/responses');
      expect((request.body as Record<string, unknown>)['context_management']).toBeUndefined();
      expect((request.body as Record<string, unknown>)['store']).toBe(false);
    }
    expect(
      warnings.filter((text) => text.includes('openai.responses') && text.includes('native compaction not sent')),
    ).toHaveLength(1);
  });
});
