import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../index.js';

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe('simulator stats', () => {
  it('counts requests, shape rejections, statuses and faults, and keeps them when requests is emptied', async () => {
    sim = await startSimulator({ contextLimit: 200 });
    const client = new Anthropic({ apiKey: 'test', baseURL: sim.url, maxRetries: 0 });
    const model = 'claude-sonnet-4-6';
    await client.messages.create({ model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    sim.requests.splice(0);
    await expect(
      client.messages.create({ model, max_tokens: 10, messages: [{ role: 'assistant', content: 'first' }] }),
    ).rejects.toThrow(/first message/);
    await expect(
      client.messages.create({ model, max_tokens: 10, messages: [{ role: 'user', content: 'word '.repeat(2_000) }] }),
    ).rejects.toThrow(/prompt is too long/);
    sim.faults.next(1, 'drop');
    await expect(
      client.messages.create({ model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sim.stats).toEqual({
      requests: 4,
      rejectedForShape: 1,
      byStatus: { 0: 1, 200: 1, 400: 2 },
      faults: { drop: 1 },
    });
  });
});
