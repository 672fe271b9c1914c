import Anthropic from '@anthropic-ai/sdk';
import { withContextManagement as withAnthropicContextManagement } from '@ctxhost/anthropic';
import type { PartialConfig } from '@ctxhost/core';
import { withContextManagement as withOpenAIContextManagement } from '@ctxhost/openai';
import { startSimulator, type Simulator } from '@ctxhost/simulator';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { collectDeprecations } from './support/collect-deprecations.js';

// The SDK wrappers' deprecated maxRecoveries, through the real SDKs against the simulator: both map it to the
// recovery cascade's re-sends per incident (hooks.anthropic-auto-compact.max_retry_attempts), the same way.
const said = collectDeprecations();
const sims: Simulator[] = [];
afterEach(async () => {
  for (const sim of sims.splice(0)) await sim.close();
});

const FAST: PartialConfig = {
  store: { kind: 'memory' },
  hooks: { 'anthropic-auto-compact': { initial_delay_ms: 0, max_delay_ms: 0 } },
};
const paragraph = 'edited src/server/routes.ts and ran npm test, 3 failures in auth.test.ts; ';
const turns = (): { role: 'user' | 'assistant'; content: string }[] => [
  ...Array.from({ length: 24 }, (_, index) => [
    { role: 'user' as const, content: `step ${index}: ${paragraph.repeat(10)}` },
    { role: 'assistant' as const, content: `done step ${index}` },
  ]).flat(),
  { role: 'user', content: 'what is left?' },
];

async function simulator(): Promise<Simulator> {
  const sim = await startSimulator({ contextLimit: 3_000 });
  sims.push(sim);
  return sim;
}
const statuses = (sim: Simulator) => sim.requests.map((request) => request.status);

/** Each wrapper: one overflowing call, with the given options; the statuses the simulator saw, and the caller's error. */
const wrappers = {
  anthropic: async (options: { maxRecoveries?: number }) => {
    const sim = await simulator();
    const client = withAnthropicContextManagement(new Anthropic({ apiKey: 'test', baseURL: sim.url, maxRetries: 0 }), {
      config: FAST,
      contextWindow: 1_000_000,
      ...options,
    });
    const error = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 100, messages: turns() }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    return { statuses: statuses(sim), error };
  },
  openai: async (options: { maxRecoveries?: number }) => {
    const sim = await simulator();
    const client = withOpenAIContextManagement(
      new OpenAI({ apiKey: 'test', baseURL: `${sim.url}/v1`, maxRetries: 0 }),
      { config: FAST, contextWindow: 1_000_000, ...options },
    );
    const error = await client.chat.completions.create({ model: 'gpt-4o', max_tokens: 100, messages: turns() }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    return { statuses: statuses(sim), error };
  },
};

describe.each(Object.entries(wrappers))('the %s wrapper’s deprecated maxRecoveries', (name, call) => {
  it('recovers with the cascade’s own re-sends when it is not given', async () => {
    const { statuses, error } = await call({});
    expect(error).toBeUndefined();
    expect(statuses).toEqual([400, 200]);
  });

  it('is the cascade’s re-sends per incident: 0 sends nothing again, and the caller gets the overflow', async () => {
    const { statuses, error } = await call({ maxRecoveries: 0 });
    expect(statuses).toEqual([400]);
    expect((error as { status?: number } | undefined)?.status).toBe(400);
    expect(
      said.filter(
        (text) =>
          text.includes('maxRecoveries') &&
          text.includes(name === 'openai' ? 'withContextManagement: maxRecoveries' : 'the maxRecoveries option'),
      ),
    ).toHaveLength(1);
  });
});
