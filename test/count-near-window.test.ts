import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, createAnthropicModel } from '@ctxhost/anthropic';
import { createHost, createMessage } from '@ctxhost/core';
import { startSimulator, type Simulator } from '@ctxhost/simulator';

// Anthropic's count_tokens is asked only when the estimate is within 5% of the window.
let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function sessionAt(fraction: number) {
  sim = await startSimulator({ contextLimit: 100_000 });
  const client = new Anthropic({ apiKey: 'test', baseURL: sim.url, maxRetries: 0 });
  const window = 10_000;
  const host = createHost({ config: { model: { contextLength: window } }, enginePlugin: false });
  const session = await host.session('s1');
  const filler = 'alpha beta gamma delta epsilon. ';
  while (session.promptSize().tokens < window * fraction)
    await session.append(createMessage('user', [{ type: 'text', text: filler.repeat(50) }]));
  return {
    host,
    session,
    agent: createAgent({ host, model: createAnthropicModel(client, { model: 'claude-sonnet-4-6' }), maxTokens: 100 }),
  };
}

describe('count_tokens near the window', () => {
  it('counts exactly when the estimate is within 5% of the window, with the request about to be sent', async () => {
    const { session, agent } = await sessionAt(0.97);
    const estimated = session.promptSize();
    expect(estimated.source).toBe('estimated');
    await agent.send('s1', 'one more question');
    const paths = sim!.requests.map((request) => request.path);
    expect(paths).toEqual(['/v1/messages/count_tokens', '/v1/messages']);
    const counted = sim!.requests[0]!.body as { messages: unknown[] };
    expect(counted.messages.length).toBe((sim!.requests[1]!.body as { messages: unknown[] }).messages.length);
  });

  it('does not count far from the window', async () => {
    const { agent } = await sessionAt(0.5);
    await agent.send('s1', 'one more question');
    expect(sim!.requests.map((request) => request.path)).toEqual(['/v1/messages']);
  });

  it('gives promptSize the exact count until the projection changes', async () => {
    const { session } = await sessionAt(0.3);
    session.reportCount?.(1234);
    expect(session.promptSize()).toMatchObject({ tokens: 1234, source: 'reported' });
    await session.append(createMessage('user', [{ type: 'text', text: 'more' }]));
    expect(session.promptSize().source).toBe('reported+estimated');
  });
});
