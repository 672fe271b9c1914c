import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefaultHost } from 'ctxhost';
import { GatewaySectionSchema, settingsFrom, startGateway, type Gateway } from '@ctxhost/gateway';
import { startSimulator, type Simulator } from '@ctxhost/simulator';

// Graceful shutdown with a stream in flight, through the real Anthropic SDK: the simulator pauses after the
// reply's first block, the gateway is closed while the client holds half a reply; the stream still ends whole,
// a new request is refused, and close() resolves only after the stream ended.
let sim: Simulator;
let gateway: Gateway;

beforeAll(async () => {
  sim = await startSimulator({ acceptAnyModel: true });
  gateway = await startGateway({
    settings: settingsFrom(GatewaySectionSchema.parse({ shutdown_grace_seconds: 20 }), sim.url),
    host: () => createDefaultHost({ config: { store: { kind: 'memory' } } }),
  });
});
afterAll(async () => {
  await gateway.close();
  await sim.close();
});

describe('gateway shutdown', () => {
  it('finishes a stream in flight and refuses new requests', async () => {
    sim.script({
      content: [
        { type: 'text', text: 'the first block, before the pause' },
        { type: 'text', text: 'the second block, after it' },
      ],
    });
    sim.faults.next(1, { kind: 'slow', delayMs: 1500, midStream: true });
    const order: string[] = [];
    gateway.server.on('request', (_request, response) =>
      response.on('finish', () => order.push('stream relayed whole')),
    );
    const client = new Anthropic({ apiKey: 'caller-key', baseURL: gateway.url, maxRetries: 0 });
    const stream = client.messages.stream({
      model: 'claude-sonnet-4-6',
      max_tokens: 200,
      messages: [{ role: 'user', content: 'hello' }],
    });
    const firstText = new Promise<string>((resolve) => stream.on('text', (text) => resolve(text)));
    expect(await firstText).toBe('the first block, before the pause');

    const closing = gateway.close().then(() => order.push('closed'));
    const final = stream.finalMessage();
    // The listening socket is closed at once: a new request is refused while the stream goes on.
    await expect(
      fetch(`${gateway.url}/v1/messages`, { method: 'POST', body: '{}', headers: { connection: 'close' } }),
    ).rejects.toThrow();

    const message = await final;
    expect(message.content.map((block) => (block.type === 'text' ? block.text : block.type))).toEqual([
      'the first block, before the pause',
      'the second block, after it',
    ]);
    expect(message.stop_reason).toBe('end_turn');
    await closing;
    expect(order).toEqual(['stream relayed whole', 'closed']);
  });
});
