import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicSummarizer } from '@ctxhost/anthropic';
import { applyCompaction, summarization, triggers, validateProjection } from '@ctxhost/compaction';
import { createTokenCounter, type Message } from '@ctxhost/core';
import { startSimulator, type Simulator } from '@ctxhost/simulator';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

const turns: Message[] = Array.from({ length: 16 }, (_, i) => ({
  id: `m${i}`,
  role: i % 2 === 0 ? 'user' : 'assistant',
  parts: [{ id: `m${i}:0`, type: 'text', text: `step ${i}: changed src/module${i}.ts and ran the tests` }],
}));

describe('summarization strategy against the simulator, through the real SDK', () => {
  it('replaces the older span with the model’s summary, atomically', async () => {
    const client = new Anthropic({ apiKey: 'test', baseURL: sim.url, maxRetries: 0 });
    const strategy = summarization({
      summarizer: createAnthropicSummarizer(client, { model: 'claude-haiku-4-5' }),
      trigger: triggers.always,
      minimumPreserved: 4,
    });
    const { messages, report } = await applyCompaction(turns, strategy, { counter: createTokenCounter() });
    const summary = messages.find((message) => message.meta?.summary !== undefined);
    expect(summary).toBeDefined();
    expect(JSON.stringify(summary)).toContain('Simulated reply');
    expect(messages.slice(-4)).toEqual(turns.slice(-4));
    expect(report.tokensAfter).toBeLessThan(report.tokensBefore);
    expect(validateProjection(messages)).toEqual([]);
    const request = sim.requests.at(-1)?.body as { system?: string };
    expect(request.system).toContain('Summarize the conversation');
  });

  it('keeps the span when the model call fails (no exclusion without its summary)', async () => {
    const client = new Anthropic({ apiKey: 'test', baseURL: sim.url, maxRetries: 0 });
    sim.faults.next(1, 'overloaded');
    const strategy = summarization({
      summarizer: createAnthropicSummarizer(client, { model: 'claude-haiku-4-5' }),
      trigger: triggers.always,
      minimumPreserved: 4,
    });
    const { messages, report } = await applyCompaction(turns, strategy, { counter: createTokenCounter() });
    expect(messages).toEqual(turns);
    expect(report.notes?.join(' ')).toMatch(/summar/i);
  });
});
