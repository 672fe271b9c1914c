import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, createAnthropicModel } from '@ctxhost/anthropic';
import { learnedWindowBound, type Message, type Session, type ToastEvent } from '@ctxhost/core';
import { startSimulator, type Simulator } from '@ctxhost/simulator';
import { createDefaultHost } from 'ctxhost';

const MODEL = 'claude-sonnet-4-6';
const WINDOW_STOP = 'model_context_window_exceeded';
let sim: Simulator | undefined;
let larger: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  await larger?.close();
  sim = undefined;
  larger = undefined;
});

/** Ten file reads whose outputs grow, as an agent's turn leaves them. */
async function readFiles(session: Session, subject: string): Promise<void> {
  for (let index = 0; index < 10; index++) {
    const callId = `${subject}_${index}`;
    const call: Message = {
      id: `${callId}-call`,
      role: 'assistant',
      parts: [
        { id: `${callId}-call:0`, type: 'tool-call', callId, name: 'read_file', input: { path: `src/${index}.ts` } },
      ],
    };
    const result: Message = {
      id: `${callId}-result`,
      role: 'user',
      parts: [
        {
          id: `${callId}-result:0`,
          type: 'tool-result',
          callId,
          output: `${subject} source line ${index}\n`.repeat(60 + index * 40),
        },
      ],
    };
    await session.append(call);
    await session.append(result);
  }
}

/**
 * A host whose model learned a bound from one session answered at a 7,000-token stop (the Anthropic agent, a client
 * window of 150,000), and agents on it for that simulator or for a second one that serves far more (`larger`).
 */
async function hostWithLearnedBound() {
  sim = await startSimulator({ contextLimit: 7_000, overflowStyle: 'stop_reason' });
  larger = await startSimulator({ contextLimit: 100_000, overflowStyle: 'stop_reason' });
  const host = await createDefaultHost({
    config: {
      store: { kind: 'memory' },
      hooks: { 'anthropic-auto-compact': { initial_delay_ms: 0, max_delay_ms: 0 } },
    },
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  });
  try {
    const window = 150_000;
    const agentOf = (server: Simulator) =>
      createAgent({
        host,
        model: createAnthropicModel(new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 }), {
          model: MODEL,
          contextWindow: window,
        }),
      });
    const first = await host.session('first');
    await first.append({ id: 'u0', role: 'user', parts: [{ id: 'u0:0', type: 'text', text: 'Investigate.' }] });
    await readFiles(first, 'build');
    await agentOf(sim).send('first', 'What failed?');
    const bound = learnedWindowBound(host, MODEL)!;
    expect(bound.fits).toBeLessThan(7_000);
    return { host, window, agentOf, bound, larger };
  } catch (error) {
    await host.dispose();
    throw error;
  }
}

describe('a stateful session keeps what a probe of a window stop found (Anthropic SDK, stop_reason style)', () => {
  it('the second growth past the unnamed limit is compacted before it is sent: no window stop again', async () => {
    sim = await startSimulator({ contextLimit: 7_000, overflowStyle: 'stop_reason' });
    const client = new Anthropic({ apiKey: 'test', baseURL: sim.url, maxRetries: 0 });
    const host = await createDefaultHost({
      config: {
        store: { kind: 'memory' },
        hooks: { 'anthropic-auto-compact': { initial_delay_ms: 0, max_delay_ms: 0 } },
      },
      logger: { debug() {}, info() {}, warn() {}, error() {} },
    });
    try {
      const toasts: ToastEvent[] = [];
      host.hooks.toast.tapPromise('test', async (toast) => void toasts.push(toast));
      const agent = createAgent({ host, model: createAnthropicModel(client, { model: MODEL }) });
      const stops = () => sim!.requests.filter((request) => request.stopReason === WINDOW_STOP).length;
      const session = await host.session('s');
      await session.append({
        id: 'u0',
        role: 'user',
        parts: [{ id: 'u0:0', type: 'text', text: 'Investigate the build.' }],
      });
      await readFiles(session, 'build');
      // The turn ends with the window stop; the recovery answers it before send() returns.
      await agent.send('s', 'What failed?');
      expect(session.messages().at(-1)?.role).toBe('assistant');
      const firstIncident = stops();
      expect(firstIncident).toBeGreaterThan(0);
      expect(toasts.filter((toast) => toast.title === 'Context window learned')).toHaveLength(1);
      const learned = session.contextWindow!;
      expect(learned).toBeLessThan(7_000);

      await readFiles(session, 'deploy');
      expect(await agent.send('s', 'And the deploy?')).toMatchObject({ status: 'done' });
      expect(stops()).toBe(firstIncident);
      // Answered above the learned window but under the smallest prompt refused: no silent overflow, the window rises.
      expect(toasts.some((toast) => toast.title === 'Silent overflow')).toBe(false);
      expect(session.contextWindow).toBeGreaterThanOrEqual(learned);
      expect(toasts.filter((toast) => toast.title === 'Context window learned')).toHaveLength(1);
    } finally {
      await host.dispose();
    }
  });

  it('a session that forgets an inherited bound goes back to the client’s explicit window, not the config’s', async () => {
    // The same model behind a gateway that serves more: the limit the bound was learned under moved.
    const { host, window, agentOf, bound, larger: largerServer } = await hostWithLearnedBound();
    try {
      // A later session inherits the model's bound, is answered above it (raised), then at the smallest prompt refused (forgotten).
      const agent = agentOf(largerServer);
      const session = await host.session('later');
      const log = (tokens: number) =>
        `What failed?\n${'the build log says error TS2322 in src/app.ts\n'.repeat(Math.ceil(tokens / 15))}`;
      expect(await agent.send('later', log((bound.fits! + bound.rejected!) / 2))).toMatchObject({ status: 'done' });
      expect(session.contextWindow).toBeGreaterThan(bound.fits!);
      expect(session.contextWindow).toBeLessThan(bound.rejected!);
      expect(await agent.send('later', log(bound.rejected! * 1.3))).toMatchObject({ status: 'done' });
      expect(learnedWindowBound(host, MODEL)).toBeUndefined();
      expect(session.contextWindow).toBe(window);
    } finally {
      await host.dispose();
    }
  });

  it('a session that inherited a bound follows the model’s bound another session raised or forgot since, as each stateless request does', async () => {
    const { host, window, agentOf, bound, larger: largerServer } = await hostWithLearnedBound();
    try {
      // A session opened under the bound is capped by it.
      const agent = agentOf(largerServer);
      const capped = await host.session('capped');
      await agent.send('capped', 'Hello.');
      expect(capped.contextWindow).toBe(bound.fits);
      // Another session is answered above the bound: the model's window rises, and the capped session's next turn plans with it.
      const log = (tokens: number) =>
        `What failed?\n${'the build log says error TS2322 in src/app.ts\n'.repeat(Math.ceil(tokens / 15))}`;
      await agent.send('other', log((bound.fits! + bound.rejected!) / 2));
      const raised = learnedWindowBound(host, MODEL)!;
      expect(raised.fits).toBeGreaterThan(bound.fits!);
      await agent.send('capped', 'And now?');
      expect(capped.contextWindow).toBe(raised.fits);
      // Another session is answered at the smallest prompt refused: forgotten, and the capped session goes back to the client's window.
      await agent.send('third', log(bound.rejected! * 1.3));
      expect(learnedWindowBound(host, MODEL)).toBeUndefined();
      await agent.send('capped', 'And now?');
      expect(capped.contextWindow).toBe(window);
    } finally {
      await host.dispose();
    }
  });
});
