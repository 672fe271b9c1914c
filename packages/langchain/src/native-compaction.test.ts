import { NO_READABLE_COPY, type PartialConfig } from '@ctxhost/core';
import { startSimulator, type MessagesRequest, type Simulator } from '@ctxhost/simulator';
import { ChatAnthropic } from '@langchain/anthropic';
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent } from 'langchain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { contextManagementMiddleware } from './index.js';

// Native context management through LangChain's ChatAnthropic and ChatOpenAI (Responses API) against the simulator.
const CLAUDE = 'claude-sonnet-4-6';
const sims: Simulator[] = [];
afterEach(async () => {
  for (const sim of sims.splice(0)) await sim.close();
});

const native = (section: Record<string, unknown>): PartialConfig => ({
  store: { kind: 'memory' },
  hooks: { 'native-compaction': section },
});

const paragraph = 'edited src/server/routes.ts and ran npm test, 3 failures in auth.test.ts; ';
const history = (turns: number, size: number): BaseMessage[] =>
  Array.from({ length: turns }, (_, index) => [
    new HumanMessage(`step ${index}: ${paragraph.repeat(size)}`),
    new AIMessage(`done step ${index}`),
  ]).flat();

async function agentOn(section: Record<string, unknown>) {
  const sim = await startSimulator();
  sims.push(sim);
  const model = new ChatAnthropic({
    model: CLAUDE,
    apiKey: 'test',
    anthropicApiUrl: sim.url,
    maxRetries: 0,
    maxTokens: 100,
  });
  const agent = createAgent({
    model,
    tools: [],
    middleware: [contextManagementMiddleware({ config: native(section), contextWindow: 200_000 })],
  });
  const bodies = () =>
    sim.requests.filter((request) => request.path === '/v1/messages').map((request) => request.body as MessagesRequest);
  return { sim, model, agent, bodies };
}

describe('LangChain middleware + ChatAnthropic', () => {
  it('sends context editing through ChatAnthropic: the edits and their beta reach the API, the agent model unchanged', async () => {
    const { sim, model, agent, bodies } = await agentOn({
      anthropic: { clear_tool_uses: { enabled: true, trigger_tokens: 30_000, keep_tool_uses: 2 } },
    });
    await agent.invoke({ messages: [...history(2, 2), new HumanMessage('go on')] });
    expect(bodies()[0]!['context_management']).toEqual({
      edits: [
        {
          type: 'clear_tool_uses_20250919',
          trigger: { type: 'input_tokens', value: 30_000 },
          keep: { type: 'tool_uses', value: 2 },
        },
      ],
    });
    expect(sim.requests[0]!.betas).toContain('context-management-2025-06-27');
    expect(model.contextManagement).toBeUndefined();
  });

  it('threshold compaction: the server compacts, and its block goes back to it as a compaction block', async () => {
    const { sim, agent, bodies } = await agentOn({
      anthropic: { compaction: { enabled: true, trigger_tokens: 50_000 } },
    });
    const first = await agent.invoke({ messages: [...history(40, 100), new HumanMessage('what is left?')] });
    expect(sim.requests[0]!.betas).toContain('compact-2026-01-12');
    await agent.invoke({ messages: [...first.messages, new HumanMessage('go on with auth.test.ts')] });
    const blocks = bodies()
      .at(-1)!
      .messages.flatMap((message) => (typeof message.content === 'string' ? [] : message.content));
    expect(blocks.filter((block) => block.type === 'compaction')).toHaveLength(1);
    expect(sim.requests.at(-1)!.usage!.input_tokens).toBeLessThan(10_000);
  });
});

describe('LangChain middleware + ChatOpenAI on the Responses API', () => {
  const inline = native({ openai: { inline: { enabled: true, compact_threshold: 2_000 } } });
  const gptOn = (sim: Simulator, useResponsesApi: boolean) =>
    new ChatOpenAI({
      model: 'gpt-5.5',
      apiKey: 'test',
      configuration: { baseURL: `${sim.url}/v1` },
      maxRetries: 0,
      maxTokens: 64,
      useResponsesApi,
      // store: false: whole items are sent, not references to items OpenAI stored.
      zdrEnabled: true,
    });

  it("sends inline compaction in modelKwargs' context_management; the item goes back exactly, then as its readable copy to ChatAnthropic", async () => {
    const sim = await startSimulator();
    sims.push(sim);
    const middleware = contextManagementMiddleware({ config: inline, contextWindow: 200_000 });
    const model = gptOn(sim, true);
    const gpt = createAgent({ model, tools: [], middleware: [middleware] });
    const first = await gpt.invoke({ messages: [...history(12, 10), new HumanMessage('what is left?')] });
    expect(sim.requests[0]!.path).toBe('/v1/responses');
    expect((sim.requests[0]!.body as Record<string, unknown>)['context_management']).toEqual([
      { type: 'compaction', compact_threshold: 2_000 },
    ]);
    expect((model as unknown as { fields: { modelKwargs?: unknown } }).fields.modelKwargs).toBeUndefined();
    const reply = first.messages.at(-1)!;
    const item = ((reply.response_metadata as Record<string, unknown>)['output'] as Record<string, unknown>[]).find(
      (entry) => entry['type'] === 'compaction',
    )!;
    expect(item).toMatchObject({ id: expect.any(String), encrypted_content: expect.any(String) });

    const next = [...first.messages, new HumanMessage('go on')];
    await gpt.invoke({ messages: next });
    const input = (sim.requests.at(-1)!.body as { input: Record<string, unknown>[] }).input;
    expect(input.filter((entry) => entry['type'] === 'compaction')).toEqual([
      { type: 'compaction', id: item['id'], encrypted_content: item['encrypted_content'] },
    ]);
    // The server reads the item in place of everything before it.
    expect(sim.requests.at(-1)!.usage!.input_tokens).toBeLessThan(1_000);

    // The same conversation on ChatAnthropic: the encrypted item goes as ctxhost's readable copy of what it covers.
    const claude = createAgent({
      model: new ChatAnthropic({
        model: CLAUDE,
        apiKey: 'test',
        anthropicApiUrl: sim.url,
        maxRetries: 0,
        maxTokens: 64,
      }),
      tools: [],
      middleware: [middleware],
    });
    await claude.invoke({ messages: next });
    const toAnthropic = sim.requests.at(-1)!;
    expect(toAnthropic.path).toBe('/v1/messages');
    expect(toAnthropic.status).toBe(200);
    const sent = JSON.stringify(toAnthropic.body);
    expect(sent).not.toContain(String(item['encrypted_content']));
    expect(sent).not.toContain(NO_READABLE_COPY);
    // The reply that carried the item: its readable copy (what the item covers, from step 0 on), then the answer.
    const replied = (toAnthropic.body as MessagesRequest).messages.at(-2)!;
    expect(replied.role).toBe('assistant');
    expect(JSON.stringify(replied.content)).toMatch(/## Goal\\nstep 0: .*Simulated reply about: what is left\?/);
  });

  it('says once, and sends nothing native, through ChatOpenAI on Chat Completions', async () => {
    const sim = await startSimulator();
    sims.push(sim);
    const warnings: string[] = [];
    // Collected, not printed: this warning is what the test expects (a clean test log).
    const said = vi.spyOn(process, 'emitWarning').mockImplementation((warning) => void warnings.push(String(warning)));
    try {
      const agent = createAgent({
        model: gptOn(sim, false),
        tools: [],
        middleware: [contextManagementMiddleware({ config: inline, contextWindow: 200_000 })],
      });
      await agent.invoke({ messages: [new HumanMessage('hello')] });
      await agent.invoke({ messages: [new HumanMessage('hello again')] });
    } finally {
      said.mockRestore();
    }
    expect(sim.requests.at(-1)!.path).toBe('/v1/chat/completions');
    expect((sim.requests.at(-1)!.body as Record<string, unknown>)['context_management']).toBeUndefined();
    expect(warnings.filter((text) => text.includes('native compaction not sent'))).toHaveLength(1);
  });
});
