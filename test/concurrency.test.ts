import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, createAnthropicModel, createAnthropicSummarizer, type TurnOutcome } from '@ctxhost/anthropic';
import { isSummaryRequest, startSimulator, type MessagesRequest, type Simulator } from '@ctxhost/simulator';
import { createDefaultHost, type Host, type HookFailedEvent, type Message } from 'ctxhost';

const MODEL = 'claude-sonnet-4-6';
let sim: Simulator | undefined;
let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  await sim?.close();
  host = undefined;
  sim = undefined;
});

/** A host with every default hook over the real SDK and the simulator; the host is told a window far larger than the API's, so a long session overflows. */
async function setup(options: { contextLimit: number }) {
  sim = await startSimulator({ contextLimit: options.contextLimit });
  const client = new Anthropic({ apiKey: 'test', baseURL: sim.url, maxRetries: 0 });
  host = await createDefaultHost({
    config: {
      store: { kind: 'memory' },
      hooks: { 'anthropic-auto-compact': { initial_delay_ms: 0, max_delay_ms: 0 } },
    },
    summarizer: createAnthropicSummarizer(client, { model: MODEL }),
  });
  const failures: HookFailedEvent[] = [];
  host.hooks.hookFailed.tap('test', (failure) => failures.push(failure));
  const timeline: string[] = [];
  host.hooks.messageUpdated.tapPromise('test', async ({ message }) => {
    timeline.push(
      `${message.role}:${message.parts.map((part) => (part.type === 'text' ? part.text.slice(0, 12) : part.type)).join('|')}`,
    );
  });
  host.hooks.compactionCompleted.tapPromise('test', async () => {
    timeline.push('compaction');
  });
  const toasts: string[] = [];
  host.hooks.toast.tapPromise('test', async (toast) => {
    toasts.push(toast.title);
  });
  const agent = createAgent({
    host,
    model: createAnthropicModel(client, { model: MODEL, contextWindow: 1_000_000 }),
    system: 'You are a careful engineer.',
    maxTokens: 200,
  });
  return { sim, host, agent, failures, timeline, toasts };
}

/** A text-only history (nothing to truncate, nothing to revert past the last question), ~6k simulator tokens. */
function longHistory(): Message[] {
  return Array.from({ length: 24 }, (_, index) => ({
    id: `h${index}`,
    role: index % 2 === 0 ? 'user' : 'assistant',
    parts: [
      {
        id: `h${index}:0`,
        type: 'text',
        text: `step ${index}: looked at src/module${index}.ts and ran the tests. ${'the build output was long and detailed '.repeat(30)}`,
      },
    ],
  }));
}

const lastUserText = (request: MessagesRequest) => {
  const last = request.messages.at(-1);
  return typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
};

describe('concurrency on one session, through the agent, the SDK and the simulator', () => {
  it('serializes two sends: the second user message goes in only after the first turn’s reply', async () => {
    const { sim, agent, failures } = await setup({ contextLimit: 200_000 });
    sim.faults.at(1, { kind: 'slow', delayMs: 300 });
    const [first, second] = await Promise.all([agent.send('s', 'first question'), agent.send('s', 'second question')]);
    expect(first.status).toBe('done');
    expect(second.status).toBe('done');
    const roles = (await host!.session('s'))
      .messages()
      .map(
        (message) => `${message.role}:${message.parts[0]?.type === 'text' ? message.parts[0].text.slice(0, 15) : ''}`,
      );
    expect(roles).toEqual([
      'system:You are a caref',
      'user:first question',
      'assistant:Simulated reply',
      'user:second question',
      'assistant:Simulated reply',
    ]);
    const bodies = sim.requests.map((request) => request.body as MessagesRequest);
    expect(bodies.map(lastUserText)).toEqual([
      expect.stringContaining('first question'),
      expect.stringContaining('second question'),
    ]);
    expect(bodies[1]!.messages).toHaveLength(3);
    expect(failures).toEqual([]);
  });

  it('never runs a turn inside a recovery: a send made while the recovery summarizes waits, and its message is kept', async () => {
    const { sim, host, agent, failures, timeline } = await setup({ contextLimit: 4_000 });
    const session = await host.session('s');
    for (const message of longHistory()) await session.append(message);
    let second: Promise<TurnOutcome> | undefined;
    sim.faults.when(
      (request) => {
        if (isSummaryRequest(request) && second === undefined)
          second = agent.send('s', 'second question while recovering');
        return isSummaryRequest(request);
      },
      { kind: 'slow', delayMs: 300 },
      1,
    );
    const first = await agent.send('s', 'first question');
    expect(first).toMatchObject({ status: 'error', error: { kind: 'context_overflow' } });
    expect(second).toBeDefined();
    const secondOutcome = await second!;
    expect(
      secondOutcome.status,
      JSON.stringify({
        secondOutcome,
        timeline,
        requests: sim.requests.map((request) => [request.status, request.error]),
      }),
    ).toBe('done');
    // The recovery's compaction is complete before the second turn appends anything.
    const compaction = timeline.indexOf('compaction');
    const secondUser = timeline.findIndex((entry) => entry.startsWith('user:second quest'));
    expect(compaction).toBeGreaterThan(-1);
    expect(secondUser).toBeGreaterThan(compaction);
    const texts = session
      .messages()
      .flatMap((message) => message.parts.map((part) => (part.type === 'text' ? part.text : '')));
    expect(texts).toContain('second question while recovering');
    expect(session.messages().at(-1)?.role).toBe('assistant');
    expect(sim.requests.every((request) => !request.rejectedForShape)).toBe(true);
    expect(failures).toEqual([]);
  });

  it('cancels a recovery cleanly when the session is deleted during it: no write, no toast, no request after the delete', async () => {
    const { sim, host, agent, failures, toasts } = await setup({ contextLimit: 4_000 });
    const session = await host.session('s');
    for (const message of longHistory()) await session.append(message);
    let deleted: Promise<void> | undefined;
    let requestsAtDelete = 0;
    let toastsAtDelete = 0;
    sim.faults.when(
      (request) => {
        if (isSummaryRequest(request) && deleted === undefined) {
          deleted = session.delete().then(() => {
            requestsAtDelete = sim.requests.length;
            toastsAtDelete = toasts.length;
          });
        }
        return isSummaryRequest(request);
      },
      { kind: 'slow', delayMs: 200 },
      1,
    );
    const outcome = await agent.send('s', 'first question');
    expect(outcome.status).toBe('error');
    expect(deleted).toBeDefined();
    await deleted;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(failures.map((failure) => `${failure.plugin} ${failure.hook}: ${String(failure.error)}`)).toEqual([]);
    expect(await host.store.read('s')).toEqual([]);
    expect(await host.store.list()).not.toContain('s');
    expect(sim.requests.length).toBe(requestsAtDelete);
    expect(toasts.slice(toastsAtDelete)).toEqual([]);
    await expect(
      session.append({ id: 'late', role: 'user', parts: [{ id: 'late:0', type: 'text', text: 'late' }] }),
    ).rejects.toThrow(/was deleted/);
  });
});

describe('session.deleted announced by another worker during a recovery', () => {
  it('cancels the recovery: no write, no toast, no request after the announcement', async () => {
    const { sim, host, agent, failures, toasts } = await setup({ contextLimit: 4_000 });
    const session = await host.session('s');
    for (const message of longHistory()) await session.append(message);
    let announced: Promise<void> | undefined;
    let eventsAtDelete = 0;
    let requestsAtDelete = 0;
    let toastsAtDelete = 0;
    sim.faults.when(
      (request) => {
        if (isSummaryRequest(request) && announced === undefined) {
          // What @ctxhost/store-postgres's events plugin does when another worker deletes the session.
          announced = host.store.read('s').then(async (events) => {
            eventsAtDelete = events.length;
            requestsAtDelete = sim.requests.length;
            toastsAtDelete = toasts.length;
            await host.emit('session.deleted', { sessionId: 's' });
          });
        }
        return isSummaryRequest(request);
      },
      { kind: 'slow', delayMs: 200 },
      1,
    );
    await agent.send('s', 'first question');
    expect(announced).toBeDefined();
    await announced;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(failures.map((failure) => `${failure.plugin} ${failure.hook}: ${String(failure.error)}`)).toEqual([]);
    expect((await host.store.read('s')).length).toBe(eventsAtDelete);
    expect(sim.requests.length).toBe(requestsAtDelete);
    expect(toasts.slice(toastsAtDelete)).toEqual([]);
    await expect(
      session.append({ id: 'late', role: 'user', parts: [{ id: 'late:0', type: 'text', text: 'late' }] }),
    ).rejects.toThrow(/was deleted/);
  });
});

describe('dispose during a recovery', () => {
  it('cancels the recovery’s summary call without reporting a hook failure', async () => {
    const { sim, host, agent, failures } = await setup({ contextLimit: 4_000 });
    const session = await host.session('s');
    for (const message of longHistory()) await session.append(message);
    let disposed: Promise<void> | undefined;
    sim.faults.when(
      (request) => {
        if (isSummaryRequest(request))
          disposed ??= new Promise((resolve) => setTimeout(resolve, 20)).then(() => host.dispose());
        return isSummaryRequest(request);
      },
      { kind: 'slow', delayMs: 500 },
      1,
    );
    await agent.send('s', 'first question');
    expect(disposed).toBeDefined();
    await disposed;
    expect(failures.map((failure) => `${failure.plugin} ${failure.hook}: ${String(failure.error)}`)).toEqual([]);
  });
});
