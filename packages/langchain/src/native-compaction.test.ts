import type { PartialConfig } from '@ctxhost/core';
import { startSimulator, type MessagesRequest, type Simulator } from '@ctxhost/simulator';
import { ChatAnthropic } from '@langchain/anthropic';
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { createAgent } from 'langchain';
import { afterEach, describe, expect, it } from 'vitest';
import { contextManagementMiddleware } from './index.js';

// Anthropic's native context management through LangChain's ChatAnthropic against the simulator.
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
