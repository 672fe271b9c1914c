import {
  Agent,
  OpenAIChatCompletionsModel,
  run,
  setTracingDisabled,
  tool,
  type AgentInputItem,
  type CallModelInputFilter,
} from '@openai/agents';
import { startSimulator, type Simulator } from '@ctxhost/simulator';
import { createDefaultHost, type Host, type HostLogger, type ToastEvent } from 'ctxhost';
import OpenAI from 'openai';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createContextManagement } from './index.js';
import { MAX_PREPARED_TURNS } from './prepared-turns.js';

const MODEL = 'gpt-4o';
const INSTRUCTIONS = 'You are a careful engineer.';

/** A build investigation: ten file reads whose outputs grow, then the question. */
function conversation(): AgentInputItem[] {
  const items: AgentInputItem[] = [{ role: 'user', content: 'Investigate the failing build.' }];
  for (let index = 0; index < 10; index++) {
    const callId = `call_${index}`;
    items.push({
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: `Reading part ${index}. ${'reasoning about the build '.repeat(30)}` }],
    });
    items.push({
      type: 'function_call',
      callId,
      name: 'read_file',
      arguments: JSON.stringify({ path: `src/file${index}.ts` }),
      status: 'completed',
    });
    items.push({
      type: 'function_call_result',
      callId,
      name: 'read_file',
      status: 'completed',
      output: { type: 'text', text: `source line ${index}\n`.repeat(60 + index * 40) },
    });
  }
  items.push(
    { role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Read everything.' }] },
    { role: 'user', content: 'What failed?' },
  );
  return items;
}

const opened: { sim: Simulator; host: Host }[] = [];
beforeAll(() => setTracingDisabled(true));
afterEach(async () => {
  for (const { sim, host } of opened.splice(0)) {
    await host.dispose();
    await sim.close();
  }
});

async function rig(options: { contextLimit?: number; contextWindow: number }) {
  const sim = await startSimulator({
    models: { [MODEL]: { contextLimit: options.contextLimit ?? 1_000_000, overflowStyle: 'openai' } },
  });
  const warnings: string[] = [];
  const logger: HostLogger = {
    debug() {},
    info() {},
    warn: (message) => void warnings.push(message),
    error: (message) => void warnings.push(message),
  };
  const host = await createDefaultHost({
    config: {
      store: { kind: 'memory' },
      hooks: { 'anthropic-auto-compact': { initial_delay_ms: 0, max_delay_ms: 0 } },
    },
    logger,
  });
  opened.push({ sim, host });
  const toasts: ToastEvent[] = [];
  host.hooks.toast.tapPromise('test', async (toast) => void toasts.push(toast));
  const client = new OpenAI({ apiKey: 'test', baseURL: `${sim.url}/v1`, maxRetries: 0 });
  const ctx = createContextManagement({ host, contextWindow: options.contextWindow, model: MODEL });
  const agent = new Agent({
    name: 'engineer',
    instructions: INSTRUCTIONS,
    model: ctx.wrapModel(new OpenAIChatCompletionsModel(client, MODEL)),
    modelSettings: { maxTokens: 100 },
  });
  const plain = new Agent({
    name: 'engineer',
    instructions: INSTRUCTIONS,
    model: new OpenAIChatCompletionsModel(client, MODEL),
    modelSettings: { maxTokens: 100 },
  });
  return { sim, host, toasts, warnings, ctx, agent, plain };
}

const chatCalls = (sim: Simulator) => sim.requests.filter((request) => request.path === '/v1/chat/completions');

async function promptTokens(): Promise<number> {
  const { sim, plain } = await rig({ contextWindow: 1_000_000 });
  await run(plain, conversation());
  return sim.requests[0]!.usage!.input_tokens + (sim.requests[0]!.usage!.cache_read_input_tokens ?? 0);
}

describe('createContextManagement with the OpenAI Agents SDK runner against the simulator (Chat Completions)', () => {
  it('recovers a run 50% over the window: the run returns the answer, not the error', async () => {
    const real = await promptTokens();
    const { sim, agent, ctx, toasts } = await rig({ contextLimit: Math.floor(real / 1.5), contextWindow: 200_000 });
    const result = await run(agent, conversation(), { callModelInputFilter: ctx.callModelInputFilter });
    expect(String(result.finalOutput).length).toBeGreaterThan(0);
    expect(chatCalls(sim).map((call) => call.status)).toEqual([400, 200]);
    expect(toasts.some((toast) => toast.title === 'Session recovered')).toBe(true);
  });

  it('recovers a streamed run', async () => {
    const real = await promptTokens();
    const { sim, agent, ctx } = await rig({ contextLimit: Math.floor(real / 1.5), contextWindow: 200_000 });
    const result = await run(agent, conversation(), { stream: true, callModelInputFilter: ctx.callModelInputFilter });
    await result.completed;
    expect(String(result.finalOutput).length).toBeGreaterThan(0);
    expect(chatCalls(sim).map((call) => call.status)).toEqual([400, 200]);
  });

  it('compacts in the input filter when the window is known: one call, no 400', async () => {
    const real = await promptTokens();
    const limit = Math.floor(real / 1.5);
    const { sim, agent, ctx } = await rig({ contextLimit: limit, contextWindow: limit });
    await run(agent, conversation(), { callModelInputFilter: ctx.callModelInputFilter });
    expect(chatCalls(sim).map((call) => call.status)).toEqual([200]);
  });

  it('passes an error that is not an overflow through unchanged', async () => {
    const { sim, agent, plain, ctx } = await rig({ contextWindow: 200_000 });
    sim.faults.next(2, { kind: 'server_error' });
    const direct = await run(plain, 'hello').catch((error: unknown) => error);
    const wrapped = await run(agent, 'hello', { callModelInputFilter: ctx.callModelInputFilter }).catch(
      (error: unknown) => error,
    );
    expect((wrapped as Error).constructor).toBe((direct as Error).constructor);
    expect((wrapped as Error).message).toBe((direct as Error).message);
    expect(chatCalls(sim)).toHaveLength(2);
  });

  it('follows a tool-calling run on one view, appending only what each step adds', async () => {
    const { sim, host, agent, ctx, warnings } = await rig({ contextWindow: 200_000 });
    sim.script(
      { content: [{ type: 'tool_use', id: 'call_a', name: 'read_file', input: { path: 'a.ts' } }] },
      { content: [{ type: 'tool_use', id: 'call_b', name: 'read_file', input: { path: 'b.ts' } }] },
      'Both files read.',
    );
    const readFile = tool({
      name: 'read_file',
      description: 'Reads a file',
      parameters: z.object({ path: z.string() }),
      execute: async ({ path }) => `contents of ${path}\n`.repeat(20),
    });
    const appended: { sessionId: string; role: string }[] = [];
    host.hooks.messageUpdated.tapPromise(
      'test',
      async ({ sessionId, message }) => void appended.push({ sessionId, role: message.role }),
    );
    const result = await run(agent.clone({ tools: [readFile] }), 'Read a.ts and b.ts.', {
      callModelInputFilter: ctx.callModelInputFilter,
    });
    expect(result.finalOutput).toBe('Both files read.');
    expect(chatCalls(sim)).toHaveLength(3);
    // Step 1 opens the view with the input; steps 2 and 3 each append the call and its result, nothing twice.
    expect(appended.map((event) => event.role)).toEqual(['assistant', 'tool', 'assistant', 'tool']);
    expect(new Set(appended.map((event) => event.sessionId)).size).toBe(1);
    expect(warnings).toEqual([]);
  });
  it("hands the run's own input back when ctxhost changed nothing, and a longer one on the next step", async () => {
    const { agent, ctx } = await rig({ contextWindow: 200_000 });
    const input = conversation();
    const filtered = await ctx.callModelInputFilter({
      modelData: { instructions: INSTRUCTIONS, input },
      agent: agent as never,
      context: undefined,
    });
    expect(filtered.input).toBe(input);
    expect(filtered.instructions).toBe(INSTRUCTIONS);
    const longer: AgentInputItem[] = [...input, { role: 'user', content: 'And the tests?' }];
    const next = await ctx.callModelInputFilter({
      modelData: { instructions: INSTRUCTIONS, input: longer },
      agent: agent as never,
      context: undefined,
    });
    expect(next.input).toBe(longer);
  });
  it('takes the instructions apart from the input: changed instructions go out on the same input, an input changed in place as it is', async () => {
    const { agent, ctx, host } = await rig({ contextWindow: 200_000 });
    const seen: string[] = [];
    host.hooks.beforeRequest.tapPromise('test', async (request) => {
      seen.push(JSON.stringify(request.messages.map((message) => message.parts)));
      return request;
    });
    const input = conversation();
    const filter = (instructions: string) =>
      ctx.callModelInputFilter({ modelData: { instructions, input }, agent: agent as never, context: undefined });
    expect((await filter(INSTRUCTIONS)).instructions).toBe(INSTRUCTIONS);
    const changed = await filter('You are a terse reviewer.');
    expect(changed.instructions).toBe('You are a terse reviewer.');
    expect(changed.input).toBe(input);
    expect(seen.at(-1)).not.toContain(INSTRUCTIONS);
    // The run's own array again, pushed to and with an earlier item replaced in place.
    input.push({ role: 'user', content: 'And the tests?' });
    input[4] = {
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Reading it again.' }],
    };
    const edited = await filter('You are a terse reviewer.');
    expect(edited.input).toBe(input);
    expect(seen.at(-1)).toContain('Reading it again.');
    expect(seen.at(-1)).not.toContain('Reading part 1.');
    expect(seen.at(-1)).toContain('And the tests?');
  });
  it('is identity-preserving: each step of a run gets the run’s own items, not deep copies of them', async () => {
    const { sim, agent, ctx } = await rig({ contextWindow: 200_000 });
    sim.script({ content: [{ type: 'tool_use', id: 'call_a', name: 'read_file', input: { path: 'a.ts' } }] }, 'Read.');
    const readFile = tool({
      name: 'read_file',
      description: 'Reads a file',
      parameters: z.object({ path: z.string() }),
      execute: async ({ path }) => `contents of ${path}`,
    });
    const inputs: AgentInputItem[][] = [];
    const filter: CallModelInputFilter = Object.assign(
      (args: Parameters<CallModelInputFilter>[0]) => {
        inputs.push(args.modelData.input);
        return ctx.callModelInputFilter(args);
      },
      { preserveInputIdentity: ctx.callModelInputFilter.preserveInputIdentity },
    );
    const result = await run(agent.clone({ tools: [readFile] }), conversation(), { callModelInputFilter: filter });
    expect(result.finalOutput).toBe('Read.');
    expect(inputs).toHaveLength(2);
    // The second step's input holds the first step's items themselves (the SDK clones each item otherwise).
    for (const [index, item] of inputs[0]!.entries()) expect(inputs[1]![index]).toBe(item);
  });
  it('lets go of the turns of runs aborted between the input filter and the model call: bounded, their views reused', async () => {
    const { sim, host, agent, ctx } = await rig({ contextWindow: 200_000 });
    const views = new Set<string>();
    host.hooks.beforeRequest.tapPromise('test', async (request) => {
      views.add(request.sessionId);
      return request;
    });
    // The run stops after the filter prepared its turn: the model is never called, the turn never taken.
    const aborting: CallModelInputFilter = async (args) => {
      await ctx.callModelInputFilter(args);
      throw new Error('aborted before the model call');
    };
    const runs = MAX_PREPARED_TURNS + 20;
    for (let index = 0; index < runs; index++)
      await expect(run(agent, conversation(), { callModelInputFilter: aborting })).rejects.toThrow();
    // Each waiting turn holds a view of its own; past the bound the oldest is given back and the next run reuses it.
    expect(views.size).toBeLessThanOrEqual(MAX_PREPARED_TURNS + 1);
    expect(chatCalls(sim)).toHaveLength(0);
    const result = await run(agent, conversation(), { callModelInputFilter: ctx.callModelInputFilter });
    expect(String(result.finalOutput).length).toBeGreaterThan(0);
  });
});
