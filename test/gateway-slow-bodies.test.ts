import { connect, type Socket } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDefaultHost } from 'ctxhost';
import { GatewaySectionSchema, settingsFrom, startGateway, type Gateway } from '@ctxhost/gateway';
import { startSimulator, type Simulator } from '@ctxhost/simulator';

const SLOTS = 4;
let sim: Simulator | undefined;
let gateway: Gateway | undefined;
const sockets: Socket[] = [];
const timers: NodeJS.Timeout[] = [];

afterEach(async () => {
  for (const timer of timers.splice(0)) clearInterval(timer);
  for (const socket of sockets.splice(0)) socket.destroy();
  await gateway?.close();
  await sim?.close();
});

/** A client that announces a body and drips it a byte at a time, never finishing: it holds a concurrency slot. */
function dripBody(url: URL): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(
        `POST /v1/messages HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\ncontent-length: 1000000\r\n\r\n{`,
      );
      timers.push(setInterval(() => socket.writable && socket.write(' '), 100));
      resolve(socket);
    });
    socket.on('error', () => undefined);
    sockets.push(socket);
  });
}

describe('slow clients never lock others out of the gateway for long', { timeout: 60_000 }, () => {
  it('cuts off clients dripping their bodies at the request timeout, freeing the slots they held', async () => {
    sim = await startSimulator();
    gateway = await startGateway({
      settings: settingsFrom(GatewaySectionSchema.parse({ max_concurrent_requests: SLOTS }), sim.url),
      host: () => createDefaultHost({ config: { store: { kind: 'memory' } } }),
      timeouts: { headersMs: 1_000, requestMs: 2_000 },
    });
    const url = new URL(gateway.url);
    const slow = await Promise.all(Array.from({ length: SLOTS }, () => dripBody(url)));
    const client = new Anthropic({ apiKey: 'test', baseURL: gateway.url, maxRetries: 0 });
    const ask = () =>
      client.messages.create({
        model: 'claude-sonnet-4-6',
        max_tokens: 20,
        messages: [{ role: 'user', content: 'hi' }],
      });
    // While the slow clients hold every slot, others are told to retry…
    await vi.waitFor(() => expect(gateway!.handler.limit.active).toBe(SLOTS), { timeout: 10_000 });
    await expect(ask()).rejects.toMatchObject({ status: 503 });
    // …until the request timeout cuts them off (408) and frees the slots.
    await vi.waitFor(
      () => {
        const open = slow.filter((socket) => !(socket.destroyed || socket.readableEnded)).length;
        if (open > 0) throw new Error(`${open} slow clients still connected`);
      },
      { timeout: 20_000, interval: 100 },
    );
    expect((await ask()).content[0]?.type).toBe('text');
  });
});
