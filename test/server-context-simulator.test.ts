import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAgent, createAnthropicModel, type AgentTool } from '@ctxhost/anthropic';
import { createHost } from '@ctxhost/core';
import {
  createNativeCompactionPlugin,
  isCompactionPart,
  COMPACTION_BETA,
  CONTEXT_MANAGEMENT_BETA,
} from '@ctxhost/native-compaction';
import { createCostTracker, createServerContextPlugin } from '@ctxhost/prompt-caching';
import {
  countTokens,
  CLEARED_TOOL_RESULT_TEXT,
  startSimulator,
  type MessagesRequest,
  type Simulator,
} from '@ctxhost/simulator';

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});
async function simulator() {
  sim = await startSimulator();
  return { sim, client: new Anthropic({ apiKey: 'test', baseURL: sim.url, maxRetries: 0 }) };
}

const buildLog: AgentTool = {
  definition: {
    name: 'run_build',
    description: 'Run the build',
    inputSchema: { type: 'object', properties: { step: { type: 'number' } } },
  },
  run: async (input) =>
    `step ${(input as { step: number }).step}: ${'compiling module sources and linking objects '.repeat(150)}`,
};
const model = (client: Anthropic) =>
  createAnthropicModel(client, { model: 'claude-sonnet-4-6', contextWindow: 200_000 });

describe('server-side context management over HTTP (real SDK, simulator)', () => {
  it('context editing: the edits and beta are sent, the server clears old tool results, applied_edits reach the plugin, the session keeps every output', async () => {
    const { sim, client } = await simulator();
    const steps = [1, 2, 3, 4, 5].map((step) => ({
      content: [{ type: 'tool_use', id: `toolu_${step}`, name: 'run_build', input: { step } }],
    }));
    sim.script(...steps, { content: 'The build passes.' });
    const plugin = createNativeCompactionPlugin({
      config: { anthropic: { clear_tool_uses: { enabled: true, trigger_tokens: 2_000, keep_tool_uses: 2 } } },
      provider: 'anthropic',
    });
    const host = createHost({ plugins: [plugin] });
    const agent = createAgent({ host, model: model(client), tools: [buildLog], system: 'You build software.' });
    expect(await agent.send('s', 'Build it step by step')).toMatchObject({ status: 'done' });

    const last = sim.requests.at(-1)!;
    expect(last.betas).toEqual([CONTEXT_MANAGEMENT_BETA]);
    const body = last.body as MessagesRequest;
    expect(body['context_management']).toEqual({
      edits: [
        {
          type: 'clear_tool_uses_20250919',
          trigger: { type: 'input_tokens', value: 2_000 },
          keep: { type: 'tool_uses', value: 2 },
        },
      ],
    });
    // The client sent every output in full; the server counted the edited prompt.
    expect(JSON.stringify(body)).not.toContain(CLEARED_TOOL_RESULT_TEXT);
    const prompt =
      last.usage!.input_tokens + last.usage!.cache_creation_input_tokens + last.usage!.cache_read_input_tokens;
    expect(prompt).toBeLessThan(countTokens(body) / 2);
    const totals = plugin.totals('s')!;
    expect(totals.clearedToolUses).toBeGreaterThanOrEqual(3);
    expect(totals.clearedInputTokens).toBeGreaterThan(0);
    const session = await host.session('s');
    const outputs = session
      .messages()
      .flatMap((message) => message.parts.filter((part) => part.type === 'tool-result'));
    expect(outputs).toHaveLength(5);
    expect(
      outputs.every((part) => part.type === 'tool-result' && String(part.output).includes('compiling module sources')),
    ).toBe(true);
    expect(session.messages().at(-1)!.meta?.['contextManagement']).toMatchObject({
      applied_edits: [{ type: 'clear_tool_uses_20250919', cleared_tool_uses: 3 }],
    });
    await host.dispose();
  });

  it('server compaction through the deprecated createServerContextPlugin (it warns once, naming its replacement): the compaction block comes back, is stored, and is sent back verbatim; the server drops what came before it', async () => {
    const { sim, client } = await simulator();
    const emitWarning = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const plugin = createServerContextPlugin({ config: { compaction: { enabled: true, trigger_tokens: 50_000 } } });
    expect(emitWarning).toHaveBeenCalledWith(
      'createServerContextPlugin is deprecated: use createNativeCompactionPlugin from @ctxhost/native-compaction',
      { type: 'DeprecationWarning', code: 'CTXHOST_DEPRECATED' },
    );
    emitWarning.mockRestore();
    const costs = createCostTracker({ model: 'claude-sonnet-4-6' });
    const host = createHost({ plugins: [plugin, costs.plugin] });
    const agent = createAgent({ host, model: model(client), system: 'You review code.' });
    const longRequest = `Review src/server.ts and src/routes/users.ts. ${'The handler validates the request body and writes the record. '.repeat(4_500)}`;
    expect(await agent.send('s', longRequest)).toMatchObject({ status: 'done' });

    const first = sim.requests[0]!;
    expect(first.betas).toEqual([COMPACTION_BETA]);
    expect(first.stopReason).toBe('end_turn');
    expect(countTokens(first.body as MessagesRequest)).toBeGreaterThan(50_000);
    expect(first.usage!.iterations?.[0]).toMatchObject({ type: 'compaction' });
    const session = await host.session('s');
    const reply = session.messages().at(-1)!;
    expect(isCompactionPart(reply.parts[0]!)).toBe(true);
    expect(reply.parts[0]).toMatchObject({ type: 'text', text: expect.stringContaining('src/server.ts') });
    expect(plugin.totals('s')).toMatchObject({ compactions: 1 });
    // The compaction pass is billed: the cost tracker counts its input beside the reply's own.
    const compactionInput = (first.usage!.iterations![0] as { input_tokens: number }).input_tokens;
    const billed = costs.report('s')!.tokens;
    expect(billed.prompt).toBe(
      compactionInput +
        first.usage!.input_tokens +
        first.usage!.cache_creation_input_tokens +
        first.usage!.cache_read_input_tokens,
    );

    expect(await agent.send('s', 'What next?')).toMatchObject({ status: 'done' });
    const second = sim.requests[1]!;
    const sent = second.body as MessagesRequest;
    const assistant = sent.messages.find((message) => message.role === 'assistant')!;
    expect((assistant.content as { type: string }[])[0]).toEqual({
      type: 'compaction',
      content: reply.parts[0]!.type === 'text' ? reply.parts[0]!.text : '',
      encrypted_content: null,
    });
    expect(second.status).toBe(200);
    const prompt =
      second.usage!.input_tokens + second.usage!.cache_creation_input_tokens + second.usage!.cache_read_input_tokens;
    expect(countTokens(sent)).toBeGreaterThan(50_000);
    expect(prompt).toBeLessThan(5_000);
    expect(second.usage!.iterations).toBeUndefined();
    await host.dispose();
  });

  it('server compaction with pause_after_compaction: the agent sends again and gets its answer after the block', async () => {
    const { sim, client } = await simulator();
    const host = createHost({
      plugins: [
        createNativeCompactionPlugin({
          config: {
            anthropic: { compaction: { enabled: true, trigger_tokens: 50_000, pause_after_compaction: true } },
          },
          provider: 'anthropic',
        }),
      ],
    });
    const agent = createAgent({ host, model: model(client) });
    const outcome = await agent.send(
      's',
      `Summarise the design. ${'The cache keys chain a hash of every block before them. '.repeat(4_500)}`,
    );
    expect(outcome).toMatchObject({ status: 'done', turns: 2 });
    expect(sim.requests.map((request) => request.stopReason)).toEqual(['compaction', 'end_turn']);
    const replies = (await host.session('s')).messages().filter((message) => message.role === 'assistant');
    expect(
      replies.map((message) => message.parts.map((part) => (isCompactionPart(part) ? 'compaction' : part.type))),
    ).toEqual([['compaction'], ['text']]);
    const resent = sim.requests[1]!.body as MessagesRequest;
    expect(resent.messages.at(-1)).toMatchObject({ role: 'assistant', content: [{ type: 'compaction' }] });
    await host.dispose();
  });

  it('server compaction when streaming: the SDK assembles the compaction block (sent whole in content_block_start)', async () => {
    const { client } = await simulator();
    const streaming = createAnthropicModel(client, {
      model: 'claude-sonnet-4-6',
      contextWindow: 200_000,
      stream: true,
    });
    const text = `Fix src/app.ts. ${'The service reads the config and starts the workers. '.repeat(5_000)}`;
    const response = await streaming.create({
      sessionId: 's',
      model: 'claude-sonnet-4-6',
      maxTokens: 100,
      messages: [{ id: 'u', role: 'user', parts: [{ id: 'u:0', type: 'text', text }] }],
      providerOptions: {
        betas: [COMPACTION_BETA],
        context_management: { edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: 50_000 } }] },
      },
    });
    expect(isCompactionPart(response.message.parts[0]!)).toBe(true);
    expect(response.message.parts[1]).toMatchObject({
      type: 'text',
      text: expect.stringContaining('Simulated reply about'),
    });
  });

  it('the API refuses context_management without its beta, through the SDK', async () => {
    const { client } = await simulator();
    const params = {
      model: 'claude-sonnet-4-6',
      max_tokens: 50,
      messages: [{ role: 'user' as const, content: 'hi' }],
      context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] },
    };
    await expect(client.messages.create(params as Anthropic.MessageCreateParamsNonStreaming)).rejects.toMatchObject({
      status: 400,
      error: { error: { message: 'context_management: Extra inputs are not permitted' } },
    });
    const accepted = await client.messages.create(params as Anthropic.MessageCreateParamsNonStreaming, {
      headers: { 'anthropic-beta': CONTEXT_MANAGEMENT_BETA },
    });
    expect((accepted as unknown as { context_management: unknown }).context_management).toEqual({ applied_edits: [] });
  });
});
