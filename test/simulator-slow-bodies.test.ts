import { connect, type Socket } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSimulator, type Simulator } from '@ctxhost/simulator';

const SLOW_BODIES = 400;
const SLOW_HEADERS = 100;
let sim: Simulator | undefined;
const sockets: Socket[] = [];
const timers: NodeJS.Timeout[] = [];

afterEach(async () => {
  for (const timer of timers.splice(0)) clearInterval(timer);
  for (const socket of sockets.splice(0)) socket.destroy();
  await sim?.close();
  sim = undefined;
});

/** A client that sends its headers, announces a large body and drips it a byte at a time, never finishing. */
function dripBody(url: URL): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(
        `POST /v1/messages HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\ncontent-length: 1000000\r\n\r\n{`,
      );
      timers.push(setInterval(() => socket.writable && socket.write(' '), 200));
      resolve(socket);
    });
    socket.on('error', () => undefined);
    sockets.push(socket);
  });
}

/** A client that never finishes its headers. */
function dripHeaders(url: URL): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(`POST /v1/messages HTTP/1.1\r\nhost: ${url.host}\r\n`);
      timers.push(setInterval(() => socket.writable && socket.write('x-slow: 1\r\n'), 200));
      resolve(socket);
    });
    socket.on('error', () => undefined);
    sockets.push(socket);
  });
}

const closed = (socket: Socket) => socket.destroyed || socket.readableEnded || socket.closed;

describe('slow clients never lock others out of the simulator', { timeout: 60_000 }, () => {
  it('answers an SDK client while hundreds drip their bodies and headers, and cuts the slow ones off at its timeouts', async () => {
    sim = await startSimulator({ headersTimeoutMs: 1_000, requestTimeoutMs: 2_000 });
    const url = new URL(sim.url);
    const slow = await Promise.all([
      ...Array.from({ length: SLOW_BODIES }, () => dripBody(url)),
      ...Array.from({ length: SLOW_HEADERS }, () => dripHeaders(url)),
    ]);
    const replies: string[] = [];
    for (const socket of slow) socket.on('data', (chunk: Buffer) => replies.push(chunk.toString().split('\r\n')[0]!));

    const client = new Anthropic({ apiKey: 'test', baseURL: sim.url, maxRetries: 0 });
    const answer = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 20,
      messages: [{ role: 'user', content: 'are you still there?' }],
    });
    expect(answer.content[0]?.type).toBe('text');
    expect(slow.filter(closed).length).toBeLessThan(slow.length);

    // Every slow client is cut off (408 Request Timeout, then closed) once its timeout has passed.
    await vi.waitFor(
      () => {
        const open = slow.filter((socket) => !closed(socket)).length;
        if (open > 0) throw new Error(`${open} slow clients still connected`);
      },
      { timeout: 20_000, interval: 100 },
    );
    expect(replies.length).toBeGreaterThan(0);
    expect(new Set(replies)).toStrictEqual(new Set(['HTTP/1.1 408 Request Timeout']));
    // …and the simulator still answers afterwards.
    const again = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 20,
      messages: [{ role: 'user', content: 'and now?' }],
    });
    expect(again.content[0]?.type).toBe('text');
  });
});
