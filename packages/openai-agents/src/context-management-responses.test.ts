import { Agent, OpenAIResponsesModel, run, setTracingDisabled, type AgentInputItem } from '@openai/agents';
import { startSimulator, type Simulator } from '@ctxhost/simulator';
import { createDefaultHost, learnedWindowBound, type Host, type ToastEvent } from 'ctxhost';
import OpenAI from 'openai';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createContextManagement } from './index.js';

// The Agents SDK's default model speaks the Responses API: the same context management over /v1/responses.
const MODEL = 'gpt-5.5';

/** A build investigation: ten file reads whose outputs grow, then the question. */
function conversation(subject = 'build'): AgentInputItem[] {
  const items: AgentInputItem[] = [{ role: 'user', content: `Investigate the failing ${subject}.` }];
  for (let index = 0; index < 10; index++) {
    const callId = `call_${index}`;
    items.push(
      {
        type: 'function_call',
        callId,
        name: 'read_file',
        arguments: JSON.stringify({ path: `src/file${index}.ts` }),
        status: 'completed',
      },
      {
        type: 'function_call_result',
        callId,
        name: 'read_file',
        status: 'completed',
        output: { type: 'text', text: `${subject} source line ${index}\n`.repeat(60 + index * 40) },
      },
    );
  }
  items.push({ role: 'user', content: 'What failed?' });
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

async function rig(contextLimit: number, contextWindow: number | undefined) {
  const sim = await startSimulator({ models: { [MODEL]: { contextLimit } } });
  const host = await createDefaultHost({
    config: {
      store: { kind: 'memory' },
      hooks: { 'anthropic-auto-compact': { initial_delay_ms: 0, max_delay_ms: 0 } },
    },
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  });
  opened.push({ sim, host });
  const toasts: ToastEvent[] = [];
  host.hooks.toast.tapPromise('test', async (toast) => void toasts.push(toast));
  const client = new OpenAI({ apiKey: 'test', baseURL: `${sim.url}/v1`, maxRetries: 0 });
  const ctx = createContextManagement({
    host,
    ...(contextWindow === undefined ? {} : { contextWindow }),
    model: MODEL,
  });
  const model = new OpenAIResponsesModel(client, MODEL);
  const agent = new Agent({ name: 'engineer', instructions: 'You are careful.', model: ctx.wrapModel(model) });
  const plain = new Agent({ name: 'engineer', instructions: 'You are careful.', model });
  const calls = () => sim.requests.filter((request) => request.path === '/v1/responses');
  return { agent, plain, ctx, toasts, calls, host };
}

async function promptTokens(): Promise<number> {
  const { plain, calls } = await rig(1_000_000, 1_000_000);
  await run(plain, conversation());
  const usage = calls()[0]!.usage!;
  return usage.input_tokens + usage.cache_read_input_tokens;
}

describe('createContextManagement with the OpenAI Agents SDK runner on its default Responses model', () => {
  // The Responses overflow names no limit: recovery cannot learn the window from it (see the package README).
  it('recovers a run 10% over the window from the Responses overflow (context_length_exceeded, no numbers)', async () => {
    const real = await promptTokens();
    const { agent, ctx, toasts, calls } = await rig(Math.floor(real / 1.1), 200_000);
    const result = await run(agent, conversation(), { callModelInputFilter: ctx.callModelInputFilter });
    expect(String(result.finalOutput).length).toBeGreaterThan(0);
    expect(calls().map((call) => call.status)).toEqual([400, 200]);
    expect(calls()[0]?.error).toMatch(/exceeds the context window/);
    expect(toasts.some((toast) => toast.title === 'Session recovered')).toBe(true);
  });

  it('recovers a run 50% over a window configured far too large: the rejected prompt bounds the unnamed limit', async () => {
    const real = await promptTokens();
    const { agent, ctx, toasts, calls } = await rig(Math.floor(real / 1.5), 200_000);
    const result = await run(agent, conversation(), { callModelInputFilter: ctx.callModelInputFilter });
    expect(String(result.finalOutput).length).toBeGreaterThan(0);
    expect(calls().at(-1)?.status).toBe(200);
    expect(calls().length).toBeLessThanOrEqual(3);
    expect(toasts.some((toast) => toast.title === 'Session recovered')).toBe(true);
  });

  it('recovers a run six times over an unknown window: each rejection halves the aim until the prompt fits', async () => {
    const real = await promptTokens();
    const { agent, ctx, toasts, calls } = await rig(Math.floor(real / 6), undefined);
    const result = await run(agent, conversation(), { callModelInputFilter: ctx.callModelInputFilter });
    expect(String(result.finalOutput).length).toBeGreaterThan(0);
    expect(calls().at(-1)?.status).toBe(200);
    expect(calls().filter((call) => call.status === 400).length).toBeGreaterThan(2);
    expect(toasts.filter((toast) => toast.title === 'Session recovered')).toHaveLength(1);
    expect(toasts.some((toast) => toast.title === 'Manual intervention needed')).toBe(false);
  });

  it('keeps the bound a probe found: a later conversation past the unnamed limit is compacted first, no 400', async () => {
    const real = await promptTokens();
    const { agent, ctx, toasts, calls } = await rig(Math.floor(real / 2), undefined);
    await run(agent, conversation(), { callModelInputFilter: ctx.callModelInputFilter });
    // Twice over: the first aim (85% of the rejected prompt, 85% of that) is refused too, the second fits.
    expect(calls().map((call) => call.status)).toEqual([400, 400, 200]);
    expect(toasts.filter((toast) => toast.title === 'Context window learned')).toHaveLength(1);
    const firstIncident = calls().length;
    // Another conversation of the same model, as far over the limit: the learned window compacts it before it is sent
    // (without it, the same two probing 400s again).
    const result = await run(agent, conversation('deploy'), { callModelInputFilter: ctx.callModelInputFilter });
    expect(String(result.finalOutput).length).toBeGreaterThan(0);
    const second = calls().slice(firstIncident);
    expect(second.map((call) => call.status)).toEqual(second.map(() => 200));
    expect(toasts.filter((toast) => toast.title === 'Context window learned')).toHaveLength(1);
  });

  it('a limit under the newest outputs costs one 400 again, as a window configured at the limit does', async () => {
    const real = await promptTokens();
    const learning = await rig(Math.floor(real / 6), undefined);
    await run(learning.agent, conversation(), { callModelInputFilter: learning.ctx.callModelInputFilter });
    const firstIncident = learning.calls().length;
    await run(learning.agent, conversation('deploy'), { callModelInputFilter: learning.ctx.callModelInputFilter });
    expect(
      learning
        .calls()
        .slice(firstIncident)
        .map((call) => call.status),
    ).toEqual([400, 200]);
    // The compaction before sending keeps the two newest reads whole, over the limit by themselves: the recovery truncates them.
    const configured = await rig(Math.floor(real / 6), Math.floor(real / 6));
    await run(configured.agent, conversation(), { callModelInputFilter: configured.ctx.callModelInputFilter });
    expect(configured.calls().map((call) => call.status)).toEqual([400, 200]);
  });

  it('raises the learned bound when a larger prompt is answered, as a session does', async () => {
    const real = await promptTokens();
    const { agent, ctx, calls, host } = await rig(Math.floor(real / 2), undefined);
    await run(agent, conversation(), { callModelInputFilter: ctx.callModelInputFilter });
    const learned = learnedWindowBound(host, MODEL)!;
    expect(learned.fits).toBeLessThan(real / 2);
    // A pasted log between the learned fit and the limit: nothing to compact, sent as it is, and answered.
    const line = 'the build log says error TS2322 in src/app.ts\n';
    const log = line.repeat(Math.ceil((learned.fits! * 1.2) / 12));
    const before = calls().length;
    await run(agent, [{ role: 'user', content: `What failed?\n${log}` }], {
      callModelInputFilter: ctx.callModelInputFilter,
    });
    const statuses = calls().map((call) => call.status);
    expect(statuses.slice(before)).toEqual([200]);
    // The model's window for later requests: without the raise it stayed at the old fit, and a conversation of this size was compacted to it.
    const raised = learnedWindowBound(host, MODEL)!;
    expect(raised.fits).toBeGreaterThan(learned.fits! * 1.1);
    expect(raised.rejected).toBe(learned.rejected);
  });

  it('gives up once, with the 400, when what must stay is over the unnamed limit', async () => {
    const { agent, ctx, toasts, calls } = await rig(400, undefined);
    const question = `What failed? ${'the build log says error TS2322 in src/app.ts; '.repeat(80)}`;
    const items: AgentInputItem[] = [...conversation().slice(0, -1), { role: 'user', content: question }];
    await expect(run(agent, items, { callModelInputFilter: ctx.callModelInputFilter })).rejects.toThrow(
      /exceeds the context window/,
    );
    expect(calls().every((call) => call.status === 400)).toBe(true);
    // The first call, then attempts while they shrink the prompt: not every probe the unnamed limit allows.
    expect(calls().length).toBeLessThanOrEqual(4);
    expect(toasts.filter((toast) => toast.title === 'Manual intervention needed')).toHaveLength(1);
  });

  it('compacts in the input filter when the window is known: one call, no 400', async () => {
    const real = await promptTokens();
    const limit = Math.floor(real / 1.5);
    const { agent, ctx, calls } = await rig(limit, limit);
    await run(agent, conversation(), { callModelInputFilter: ctx.callModelInputFilter });
    expect(calls().map((call) => call.status)).toEqual([200]);
  });
});
