import {
  Agent,
  OpenAIChatCompletionsModel,
  OpenAIResponsesModel,
  run,
  setTracingDisabled,
  type AgentInputItem,
} from '@openai/agents';
import type { PartialConfig } from '@ctxhost/core';
import { startSimulator, type Simulator } from '@ctxhost/simulator';
import OpenAI from 'openai';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createContextManagement } from './index.js';

// OpenAI's inline compaction through the Agents SDK's Responses model against the simulator: the
// model setting carries what hooks.native-compaction asks for, and the encrypted item goes back exactly.
const MODEL = 'gpt-5.5';
const sims: Simulator[] = [];
beforeAll(() => setTracingDisabled(true));
afterEach(async () => {
  for (const sim of sims.splice(0)) await sim.close();
});

const config = {
  store: { kind: 'memory' },
  hooks: { 'native-compaction': { openai: { inline: { enabled: true, compact_threshold: 2_000 } } } },
} as PartialConfig;

const paragraph = 'edited src/server/routes.ts and ran npm test, 3 failures in auth.test.ts; ';
const history = (): AgentInputItem[] =>
  Array.from({ length: 12 }, (_, index): AgentInputItem[] => [
    { role: 'user', content: `step ${index}: ${paragraph.repeat(10)}` },
    { role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `done step ${index}` }] },
  ]).flat();

async function rig() {
  const sim = await startSimulator();
  sims.push(sim);
  const client = new OpenAI({ apiKey: 'test', baseURL: `${sim.url}/v1`, maxRetries: 0 });
  const ctx = createContextManagement({ config, contextWindow: 200_000, model: MODEL });
  return { sim, client, ctx };
}

describe('OpenAI inline compaction through the Agents SDK (OpenAIResponsesModel)', () => {
  it('sends context_management, and the compaction item the server returned goes back to it as it came', async () => {
    const { sim, client, ctx } = await rig();
    const agent = new Agent({
      name: 'engineer',
      instructions: 'You are careful.',
      model: ctx.wrapModel(new OpenAIResponsesModel(client, MODEL)),
    });
    const first = await run(agent, [...history(), { role: 'user', content: 'what is left?' }], {
      callModelInputFilter: ctx.callModelInputFilter,
    });
    const body = sim.requests[0]!.body as Record<string, unknown>;
    expect(body['context_management']).toEqual([{ type: 'compaction', compact_threshold: 2_000 }]);
    const item = first.history.find((entry) => (entry as { type?: string }).type === 'compaction');
    expect(item).toMatchObject({ type: 'compaction', encrypted_content: expect.any(String) });

    await run(agent, [...first.history, { role: 'user', content: 'go on with auth.test.ts' }], {
      callModelInputFilter: ctx.callModelInputFilter,
    });
    const input = (sim.requests.at(-1)!.body as { input: { type?: string; encrypted_content?: string }[] }).input;
    const sent = input.filter((entry) => entry.type === 'compaction');
    expect(sent).toEqual([
      expect.objectContaining({ encrypted_content: (item as { encrypted_content: string }).encrypted_content }),
    ]);
    expect(sim.requests.at(-1)!.status).toBe(200);
  });

  it('sends nothing native through the Chat Completions model, and says so once', async () => {
    const { sim, client, ctx } = await rig();
    const warnings: string[] = [];
    // Collected, not printed: this warning is what the test expects (a clean test log).
    const said = vi.spyOn(process, 'emitWarning').mockImplementation((warning) => void warnings.push(String(warning)));
    try {
      const agent = new Agent({
        name: 'engineer',
        instructions: 'You are careful.',
        model: ctx.wrapModel(new OpenAIChatCompletionsModel(client, MODEL)),
      });
      await run(agent, 'hello', { callModelInputFilter: ctx.callModelInputFilter });
      await run(agent, 'hello again', { callModelInputFilter: ctx.callModelInputFilter });
    } finally {
      said.mockRestore();
    }
    expect((sim.requests.at(-1)!.body as Record<string, unknown>)['context_management']).toBeUndefined();
    expect(warnings.filter((text) => text.includes('inline compaction needs OpenAIResponsesModel'))).toHaveLength(1);
  });

  it('on invalid_encrypted_content (an item another key made), sends the readable copy in its place and says so', async () => {
    const { sim, client, ctx } = await rig();
    const warnings: string[] = [];
    // Collected, not printed: this warning is what the test expects (a clean test log).
    const said = vi.spyOn(process, 'emitWarning').mockImplementation((warning) => void warnings.push(String(warning)));
    const foreign = {
      type: 'compaction',
      id: 'cmp_other',
      encrypted_content: 'gAAAAB-made-under-another-organisation',
    } as AgentInputItem;
    try {
      const agent = new Agent({
        name: 'engineer',
        instructions: 'You are careful.',
        model: ctx.wrapModel(new OpenAIResponsesModel(client, MODEL)),
      });
      const result = await run(agent, [foreign, { role: 'user', content: 'go on with auth.test.ts' }], {
        callModelInputFilter: ctx.callModelInputFilter,
      });
      expect(result.finalOutput).toEqual(expect.any(String));
    } finally {
      said.mockRestore();
    }
    expect(sim.requests.map((request) => request.status)).toEqual([400, 200]);
    expect(sim.requests[0]!.error).toMatch(/could not be verified/);
    const input = (sim.requests[1]!.body as { input: { type?: string }[] }).input;
    expect(input.filter((entry) => entry.type === 'compaction')).toEqual([]);
    expect(warnings.filter((text) => text.includes('sent again with its readable copy'))).toHaveLength(1);
  });
});
