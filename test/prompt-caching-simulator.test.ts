import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, fromAnthropic, toAnthropic, type Host, type Usage } from '@ctxhost/core';
import { createCostTracker, createPromptCachingPlugin } from '@ctxhost/prompt-caching';
import { startSimulator, type Simulator } from '@ctxhost/simulator';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ minCacheableTokens: 200 });
});
afterAll(() => sim.close());

const MODEL = 'claude-sonnet-4-6';

/** One turn as the agent loop does it: the request through the host's waterfall, then the real SDK. */
async function turn(host: Host, client: Anthropic, sessionId: string, userText: string): Promise<Usage> {
  const session = await host.session(sessionId);
  await session.append(
    fromAnthropic([{ role: 'user', content: userText }], undefined, { idPrefix: `u${session.messages().length}-` })[0]!,
  );
  const request = await host.hooks.beforeRequest.promise(
    { sessionId, model: MODEL, messages: session.messages(), maxTokens: 200 },
    { sessionId, contextWindow: 200_000 },
  );
  const wire = toAnthropic(request.messages);
  const reply = await client.messages.create({
    model: MODEL,
    max_tokens: 200,
    messages: wire.messages as Anthropic.MessageParam[],
    ...(wire.system === undefined ? {} : { system: wire.system }),
  });
  const usage: Usage = {
    inputTokens: reply.usage.input_tokens,
    outputTokens: reply.usage.output_tokens,
    cacheCreationInputTokens: reply.usage.cache_creation_input_tokens ?? 0,
    cacheReadInputTokens: reply.usage.cache_read_input_tokens ?? 0,
  };
  const assistant = fromAnthropic(
    [
      {
        role: 'assistant',
        content: reply.content.map((block) =>
          block.type === 'text' ? { type: 'text' as const, text: block.text } : { type: 'text' as const, text: '?' },
        ),
      },
    ],
    undefined,
    { idPrefix: `a${session.messages().length}-` },
  )[0]!;
  await session.append(assistant, { usage });
  return usage;
}

describe('prompt caching against the simulator', () => {
  it('system_and_3 breakpoints make the second turn read the cache, and the cost tracker sees the saving', async () => {
    const client = new Anthropic({ apiKey: 'test', baseURL: sim.url, maxRetries: 0 });
    const costs = createCostTracker({ model: MODEL });
    const host = createHost({ plugins: [createPromptCachingPlugin(), costs.plugin] });
    const session = await host.session('cached');
    await session.append({
      id: 'sys',
      role: 'system',
      parts: [{ id: 'sys:0', type: 'text', text: 'You are a meticulous engineer. '.repeat(120) }],
    });
    const first = await turn(host, client, 'cached', 'Read the build log and tell me what failed.');
    const second = await turn(host, client, 'cached', 'And how do I fix it?');
    expect(first.cacheCreationInputTokens).toBeGreaterThan(0);
    expect(second.cacheReadInputTokens).toBeGreaterThan(0);
    const report = costs.report('cached')!;
    expect(report.cacheHitRatio).toBeGreaterThan(0.3);
    expect(report.dollarsSaved).toBeGreaterThan(0);
    const sent = sim.requests.at(-1)?.body as { system: { cache_control?: unknown }[] };
    expect(sent.system.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
  });

  it('without the plugin nothing is cached', async () => {
    const client = new Anthropic({ apiKey: 'test', baseURL: sim.url, maxRetries: 0 });
    const host = createHost();
    const session = await host.session('plain');
    await session.append({
      id: 'sys',
      role: 'system',
      parts: [{ id: 'sys:0', type: 'text', text: 'You are a meticulous engineer. '.repeat(120) }],
    });
    await turn(host, client, 'plain', 'first');
    const second = await turn(host, client, 'plain', 'second');
    expect(second.cacheReadInputTokens).toBe(0);
  });
});
