import { LONG_RUNNING_RECORDING, startSimulator } from '@ctxhost/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { simulatorCommandOptions } from './simulator.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('ctxhost simulator', () => {
  it('starts with the long-running recording bounds of the ctxhost-simulator bin', () => {
    const options = simulatorCommandOptions({ port: 0, host: '127.0.0.1', overflowStyle: 'prompt_too_long' }, 50_000);
    expect(options).toMatchObject({ ...LONG_RUNNING_RECORDING, contextLimit: 50_000, acceptAnyModel: false });
  });

  it('keeps only its newest requests while the totals go on', async () => {
    const simulator = await startSimulator({
      ...simulatorCommandOptions({ port: 0, host: '127.0.0.1', overflowStyle: 'prompt_too_long' }, 50_000),
      maxRecordedRequests: 3,
    });
    closers.push(() => simulator.close());
    for (let index = 0; index < 5; index++)
      await fetch(`${simulator.url}/v1/messages/count_tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'offline' },
        body: JSON.stringify({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: `hello ${index}` }] }),
      });
    expect(simulator.requests).toHaveLength(3);
    expect(simulator.stats.requests).toBe(5);
  });
});
