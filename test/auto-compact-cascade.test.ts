import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAgent, createAnthropicModel, toParams } from '@ctxhost/anthropic';
import {
  backoffDelay,
  createAutoCompactPlugin,
  isTruncationMarker,
  AUTO_COMPACT_DEFAULTS,
} from '@ctxhost/auto-compact';
import { compressorEngineFactory } from '@ctxhost/compressor';
import { createHost, type Host, type Message, type ToastEvent } from '@ctxhost/core';
import { startSimulator, type Simulator, type SimulatorFeature } from '@ctxhost/simulator';

const MODEL = 'claude-sonnet-4-6';
let sim: Simulator | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await sim?.close();
  sim = undefined;
});

let next = 0;
const id = () => `x${++next}`;
function conversation(outputs: number[], options: { emptyAt?: number } = {}): Message[] {
  const messages: Message[] = [
    { id: id(), role: 'system', parts: [{ id: id(), type: 'text', text: 'You are a careful engineer.' }] },
    { id: id(), role: 'user', parts: [{ id: id(), type: 'text', text: 'Investigate the failing build.' }] },
  ];
  outputs.forEach((size, index) => {
    const callId = `toolu_${index}_${next}`;
    messages.push({
      id: id(),
      role: 'assistant',
      parts: [
        { id: id(), type: 'text', text: `Reading part ${index}.` },
        { id: id(), type: 'tool-call', callId, name: 'read_file', input: { path: `src/file${index}.ts` } },
      ],
    });
    messages.push({
      id: id(),
      role: 'tool',
      parts: [
        {
          id: id(),
          type: 'tool-result',
          callId,
          output: `line of source code number ${index}\n`.repeat(Math.ceil(size / 32)),
        },
      ],
    });
  });
  messages.push({
    id: id(),
    role: 'assistant',
    parts: [{ id: id(), type: 'text', text: options.emptyAt === undefined ? 'Read everything.' : '' }],
  });
  messages.push({ id: id(), role: 'user', parts: [{ id: id(), type: 'text', text: 'What failed?' }] });
  return messages;
}

/** The prompt's size by the simulator's own tokenizer. */
async function realCount(messages: Message[]): Promise<number> {
  const probe = await startSimulator();
  const client = new Anthropic({ apiKey: 't', baseURL: probe.url, maxRetries: 0 });
  const counted = await client.messages.countTokens(
    toParams({ sessionId: 's', model: MODEL, messages, maxTokens: 100 }),
  );
  await probe.close();
  return counted.input_tokens;
}

interface Setup {
  host: Host;
  toasts: ToastEvent[];
  resends: number;
  agentRetry: (signal?: AbortSignal) => Promise<unknown>;
  sessionId: string;
}

/** A session whose next request is `overBy` over the simulator's limit (by the simulator's own count). */
async function setUp(
  messages: Message[],
  overBy: number,
  config: Record<string, unknown> = {},
  features?: SimulatorFeature[],
  experimental: { aggressiveTruncation?: boolean } = {},
): Promise<Setup> {
  sim = await startSimulator({
    contextLimit: overBy < 0 ? 1_000_000 : Math.floor((await realCount(messages)) / (1 + overBy)),
    ...(features === undefined ? {} : { features }),
  });
  const client = new Anthropic({ apiKey: 't', baseURL: sim.url, maxRetries: 0 });
  const host = createHost({
    config: { hooks: { 'anthropic-auto-compact': { initial_delay_ms: 5, ...config } }, experimental },
    enginePlugin: false,
    fallbackEngine: { name: 'compressor', factory: compressorEngineFactory },
    plugins: [createAutoCompactPlugin()],
  });
  const toasts: ToastEvent[] = [];
  host.hooks.toast.tapPromise('t', async (toast) => {
    toasts.push(toast);
  });
  const setup: Setup = { host, toasts, resends: 0, sessionId: `s${next}`, agentRetry: async () => undefined };
  host.hooks.resend.tapPromise({ name: 'count', stage: -1 }, async () => {
    setup.resends++;
    return undefined;
  });
  const agent = createAgent({ host, model: createAnthropicModel(client, { model: MODEL }), maxTokens: 100 });
  const session = await host.session(setup.sessionId);
  for (const message of messages) await session.append(message);
  setup.agentRetry = (signal) => agent.retry(setup.sessionId, signal === undefined ? {} : { signal });
  return setup;
}

const lastRole = async (setup: Setup) => (await setup.host.session(setup.sessionId)).messages().at(-1)?.role;

describe('auto-compact cascade against the simulator', () => {
  it.each([
    ['1%', 0.01, 'truncation'],
    ['50%', 0.5, 'truncation'],
  ])('recovers a session over the limit by %s with %s, losing nothing', async (_label, overBy, step) => {
    const setup = await setUp(conversation([6000, 5000, 4000, 300]), overBy);
    await setup.agentRetry();
    expect(setup.toasts.map((toast) => toast.title)).toContain('Session recovered');
    expect(setup.toasts.find((toast) => toast.title === 'Session recovered')?.text).toContain(step);
    expect(await lastRole(setup)).toBe('assistant');
    const session = await setup.host.session(setup.sessionId);
    const truncated = session
      .messages()
      .flatMap((m) => m.parts)
      .filter((part) => part.type === 'tool-result' && isTruncationMarker(part.output));
    expect(truncated.length).toBeGreaterThan(0);
    for (const part of truncated) {
      // The marker leads back: it names the part and the tool that reads the original.
      expect(part.type === 'tool-result' && part.output).toContain(
        `kept as part ${part.id}: to read it, call the ctxhost_original tool with handle "${part.id}"`,
      );
      expect(JSON.stringify(await session.original(part.id))).toContain('line of source code');
    }
    expect(sim!.requests.filter((request) => request.path === '/v1/messages').length).toBe(2);
    expect(sim!.requests.every((request) => !request.rejectedForShape)).toBe(true);
  });

  describe('with the planned cascade off (oh-my-opencode’s order)', () => {
    const truncatedSizes = async (setup: Setup) =>
      (await setup.host.session(setup.sessionId))
        .messages()
        .flatMap((message) => message.parts)
        .filter((part) => part.type === 'tool-result' && isTruncationMarker(part.output))
        .map((part) => (part.type === 'tool-result' ? part.compacted?.originalChars : undefined));
    const modelCalls = () => sim!.requests.filter((request) => request.path === '/v1/messages').map((r) => r.status);

    it('truncates the largest output on each attempt while one is needed, before any revert', async () => {
      const setup = await setUp(conversation([6000, 5000, 4000, 300]), 1, { plan: false, initial_delay_ms: 0 });
      await setup.agentRetry();
      expect(setup.toasts.find((toast) => toast.title === 'Session recovered')?.text).toContain(
        'truncation → truncation;',
      );
      expect(await truncatedSizes(setup)).toHaveLength(2);
      expect(modelCalls()).toEqual([400, 400, 200]);
    });

    it('with aggressive truncation, truncates the largest outputs first until half the limit, in one attempt', async () => {
      const setup = await setUp(
        conversation([6000, 5000, 4000, 300]),
        1,
        { plan: false, initial_delay_ms: 0 },
        undefined,
        { aggressiveTruncation: true },
      );
      await setup.agentRetry();
      expect(setup.toasts.find((toast) => toast.title === 'Session recovered')?.text).toContain('after truncation;');
      const sizes = await truncatedSizes(setup);
      expect(sizes.length).toBeGreaterThanOrEqual(2);
      expect(modelCalls()).toEqual([400, 200]);
    });
  });

  it('recovers a session over by 300% (summarize when truncation is not enough)', async () => {
    const messages = conversation([900, 900, 900, 900, 900, 900, 900, 900]);
    for (const message of messages)
      if (message.role === 'assistant')
        message.parts[0] = { ...message.parts[0]!, type: 'text', text: 'thinking out loud '.repeat(120) };
    const setup = await setUp(messages, 3);
    await setup.agentRetry();
    expect(setup.toasts.map((toast) => toast.title)).toContain('Session recovered');
    expect(setup.toasts.find((toast) => toast.title === 'Session recovered')?.text).toMatch(/summarize/);
    expect(await lastRole(setup)).toBe('assistant');
  });

  it('summarizes through compaction.before and compaction.started (reason recovery), kept in the store', async () => {
    const messages = conversation([900, 900, 900, 900, 900, 900, 900, 900]);
    for (const message of messages)
      if (message.role === 'assistant')
        message.parts[0] = { ...message.parts[0]!, type: 'text', text: 'thinking out loud '.repeat(120) };
    const setup = await setUp(messages, 3);
    const plans: string[] = [];
    setup.host.hooks.compactionBefore.tap('t', (plan) => {
      plans.push(plan.reason);
      return plan;
    });
    await setup.agentRetry();
    expect(setup.toasts.find((toast) => toast.title === 'Session recovered')?.text).toMatch(/summarize/);
    expect(plans).toContain('recovery');
    const events = (await setup.host.store.read(setup.sessionId)).filter((event) =>
      event.type.startsWith('compaction.'),
    );
    expect(events[0]).toMatchObject({ type: 'compaction.started', reason: 'recovery', engine: 'compressor' });
    expect(events.find((event) => event.type === 'compaction.applied')).toMatchObject({
      report: { notes: expect.arrayContaining([expect.stringMatching(/^recovery target /)]) },
    });
  });

  it('recovers when a single tool output is larger than the whole window', async () => {
    const setup = await setUp(conversation([60_000, 200]), 0.01);
    await setup.agentRetry();
    expect(setup.toasts.map((toast) => toast.title)).toContain('Session recovered');
    expect(await lastRole(setup)).toBe('assistant');
  });

  it('fixes an empty message the API names by index', async () => {
    const setup = await setUp(conversation([200], { emptyAt: 1 }), -0.5);
    await setup.agentRetry();
    const session = await setup.host.session(setup.sessionId);
    expect(JSON.stringify(session.messages())).toContain('[user interrupted]');
    expect(setup.toasts.find((toast) => toast.title === 'Session recovered')?.text).toContain('empty-content fix');
    expect(await lastRole(setup)).toBe('assistant');
  });

  it('stops with one clear error when nothing can make it fit, and does not loop', async () => {
    const messages: Message[] = [
      { id: id(), role: 'system', parts: [{ id: id(), type: 'text', text: 'rule '.repeat(3000) }] },
      { id: id(), role: 'user', parts: [{ id: id(), type: 'text', text: 'hi' }] },
    ];
    const setup = await setUp(messages, 0.5);
    await setup.agentRetry();
    await setup.agentRetry();
    const errors = setup.toasts.filter((toast) => toast.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.title).toBe('Manual intervention needed');
    expect(errors[0]?.text).toMatch(/A single system message .* larger than the model's whole window/);
    expect(errors[0]?.text).toMatch(/still over the limit after/);
  });

  it('summarizes rather than re-running the turn once a planned step fell short', async () => {
    // Tool work after the user's question (revertable), outputs too small to cover the real overflow.
    const messages = conversation([700, 700, 700, 700, 700, 700]).slice(0, -2);
    for (const message of messages)
      if (message.role === 'assistant')
        message.parts[0] = { ...message.parts[0]!, type: 'text', text: 'thinking out loud '.repeat(120) };
    // The API counts the first request short (its long texts cut), so its error understates the overflow: the plan
    // truncates just enough for that, and the re-send, counted whole, is still over.
    let first = true;
    const understateFirst: SimulatorFeature = {
      name: 'understate-first-count',
      prepareRequest(request) {
        if (!first) return request;
        first = false;
        const cut = (content: (typeof request.messages)[number]['content']) =>
          typeof content === 'string'
            ? content
            : content.map((block) =>
                block.type === 'text' ? { ...block, text: String(block.text).slice(0, 1_200) } : block,
              );
        return {
          ...request,
          messages: request.messages.map((message) =>
            message.role === 'assistant' ? { ...message, content: cut(message.content) } : message,
          ),
        };
      },
    };
    const setup = await setUp(messages, 0.5, {}, [understateFirst]);
    await setup.agentRetry();
    const statuses = sim!.requests
      .filter((request) => request.path === '/v1/messages')
      .map((request) => request.status);
    expect(statuses).toEqual([400, 400, 200]);
    const recovered = setup.toasts.find((toast) => toast.title === 'Session recovered')?.text;
    expect(recovered).toMatch(/truncation → summarize/);
    expect(recovered).not.toMatch(/revert/);
    expect(await lastRole(setup)).toBe('assistant');
  });

  it('summarizes a turn whose tools already ran rather than reverting it and running them again', async () => {
    // One question, then a long tool loop of outputs too small to truncate: reverting would cover the overflow, but
    // it would throw the loop's work away and have the agent run all twelve calls again.
    const messages = conversation(Array.from({ length: 12 }, () => 400)).slice(0, -2);
    const setup = await setUp(messages, 0.3);
    await setup.agentRetry();
    const recovered = setup.toasts.find((toast) => toast.title === 'Session recovered')?.text;
    expect(recovered).toMatch(/summarize/);
    expect(recovered).not.toMatch(/revert/);
    const session = await setup.host.session(setup.sessionId);
    const calls = session.history().flatMap((message) => message.parts.filter((part) => part.type === 'tool-call'));
    expect(calls).toHaveLength(12); // none reverted: the history still holds every call, once
    expect(await lastRole(setup)).toBe('assistant');
  });

  it('never runs two recoveries at once for one session', async () => {
    const setup = await setUp(conversation([6000, 5000]), 0.2);
    await setup.host.emit('session.error', {
      sessionId: setup.sessionId,
      error: { kind: 'context_overflow', message: 'prompt is too long: 9 tokens > 8 maximum' },
      raw: null,
    });
    await Promise.all([
      setup.host.emit('session.idle', { sessionId: setup.sessionId }),
      setup.host.emit('session.idle', { sessionId: setup.sessionId }),
    ]);
    expect(setup.resends).toBe(1);
  });

  it('waits 2 s × 2^attempt before re-sending, capped at 30 s', async () => {
    expect([0, 1, 2, 3, 4].map((attempt) => backoffDelay(attempt, AUTO_COMPACT_DEFAULTS))).toEqual([
      2000, 4000, 8000, 16000, 30000,
    ]);
    const setup = await setUp(conversation([6000, 5000]), 0.2, { initial_delay_ms: 2000 });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await setup.host.emit('session.error', {
      sessionId: setup.sessionId,
      error: { kind: 'context_overflow', message: 'prompt is too long: 9 tokens > 8 maximum' },
      raw: null,
    });
    const idle = setup.host.emit('session.idle', { sessionId: setup.sessionId });
    await vi.advanceTimersByTimeAsync(1999);
    expect(setup.resends).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    vi.useRealTimers();
    await idle;
    expect(setup.resends).toBe(1);
  });

  it("stops the recovery's backoff at once when the caller aborts the turn, rejecting with the abort reason", async () => {
    // Ten minutes of backoff: only an abort that interrupts the wait ends this test within its timeout.
    const setup = await setUp(conversation([6000, 5000, 4000, 300]), 0.2, { initial_delay_ms: 600_000 });
    const controller = new AbortController();
    const reason = new Error('the person pressed Esc');
    // The cascade's first step changes what the model sees before the backoff starts: abort once it has.
    let stepTaken = false;
    // A retry appends nothing before its request: the first change to the session is the cascade's.
    const markStep = async () => {
      stepTaken = true;
    };
    setup.host.hooks.messageUpdated.tapPromise('abort-after-step', markStep);
    setup.host.hooks.compactionCompleted.tapPromise('abort-after-step', markStep);
    const turn = setup.agentRetry(controller.signal);
    await vi.waitFor(
      () => {
        if (!stepTaken) throw new Error('no recovery step taken yet');
      },
      { timeout: 20_000, interval: 20 },
    );
    controller.abort(reason);
    await expect(turn).rejects.toBe(reason);
    expect(setup.resends).toBe(0);
  });

  it('cancels a recovery when the session is deleted, and drops its state', async () => {
    const setup = await setUp(conversation([6000, 5000]), 0.2, { initial_delay_ms: 60_000 });
    await setup.host.emit('session.error', {
      sessionId: setup.sessionId,
      error: { kind: 'context_overflow', message: 'prompt is too long: 9 tokens > 8 maximum' },
      raw: null,
    });
    const idle = setup.host.emit('session.idle', { sessionId: setup.sessionId });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await (await setup.host.session(setup.sessionId)).delete();
    await idle;
    expect(setup.resends).toBe(0);
    expect(setup.toasts.filter((toast) => toast.source === 'anthropic-auto-compact')).toEqual([]);
  });
});
