import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDefaultHost } from 'ctxhost';
import { GatewaySectionSchema, settingsFrom, startGateway, type Gateway } from '@ctxhost/gateway';
import { startSimulator, type Simulator } from '@ctxhost/simulator';

// An overflow inside a streamed 200 (an `error` event after `message_start`, or a stop at the window with no
// content), with the real Anthropic SDK: the gateway reads the stream's opening before relaying anything, so it
// recovers it as it recovers a 400, and the client's stream is the answer to the smaller request.
const WINDOW = 6000;
const ERROR_EVENT_MODEL = 'claude-sonnet-4-6';
const WINDOW_STOP_MODEL = 'claude-opus-4-1';

let sim: Simulator;
let gateway: Gateway;

beforeAll(async () => {
  sim = await startSimulator({
    acceptAnyModel: true,
    models: {
      [ERROR_EVENT_MODEL]: { contextLimit: WINDOW, overflowStyle: 'stream_error' },
      [WINDOW_STOP_MODEL]: { contextLimit: WINDOW, overflowStyle: 'stop_reason' },
    },
  });
  // A gateway that believes the window is far larger than the simulator's: only the provider's stream tells it.
  const models = { [ERROR_EVENT_MODEL]: { context_window: 200_000 }, [WINDOW_STOP_MODEL]: { context_window: 200_000 } };
  gateway = await startGateway({
    settings: settingsFrom(GatewaySectionSchema.parse({ models }), sim.url),
    host: () => createDefaultHost({ config: { store: { kind: 'memory' } } }),
  });
});
afterAll(async () => {
  await gateway.close();
  await sim.close();
});
beforeEach(() => sim.requests.splice(0));

const TURNS = 10;
const userText = (model: string, turn: number) =>
  `${model} turn ${turn}: ${'remember the figure 42 for the ledger '.repeat(100)}`;

/** A streamed conversation; each reply must have content (a stop at the window has none). */
async function streamedConversation(baseURL: string, model: string): Promise<number> {
  const client = new Anthropic({ apiKey: 'caller-key', baseURL, maxRetries: 0 });
  const messages: Anthropic.MessageParam[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
    messages.push({ role: 'user', content: userText(model, turn) });
    const reply = await client.messages.stream({ model, max_tokens: 200, messages }).finalMessage();
    if (reply.content.length === 0) throw new Error(`turn ${turn}: empty reply, stop reason ${reply.stop_reason}`);
    messages.push({ role: 'assistant', content: reply.content });
  }
  return TURNS;
}

describe('an overflow inside a streamed reply', () => {
  it('an error event: fails when sent directly, recovered through the gateway', async () => {
    await expect(streamedConversation(sim.url, ERROR_EVENT_MODEL)).rejects.toThrow(/prompt is too long/);
    sim.requests.splice(0);
    await expect(streamedConversation(gateway.url, ERROR_EVENT_MODEL)).resolves.toBe(TURNS);
    const overflowed = sim.requests.filter((request) => request.error?.startsWith('prompt is too long') === true);
    expect(overflowed.length).toBeGreaterThan(0);
    expect(overflowed.every((request) => request.stream && request.status === 200)).toBe(true);
  }, 120_000);

  it('a stop at the window with no content: fails when sent directly, recovered through the gateway', async () => {
    await expect(streamedConversation(sim.url, WINDOW_STOP_MODEL)).rejects.toThrow(/model_context_window_exceeded/);
    sim.requests.splice(0);
    await expect(streamedConversation(gateway.url, WINDOW_STOP_MODEL)).resolves.toBe(TURNS);
    expect(sim.requests.some((request) => request.stopReason === 'model_context_window_exceeded')).toBe(true);
    expect(gateway.handler.metrics.render()).toMatch(/ctxhost_gateway_recoveries_total [1-9]/);
  }, 120_000);

  it('an error event that is no overflow reaches the client as the provider streamed it', async () => {
    sim.faults.next(1, 'sse_error');
    const client = new Anthropic({ apiKey: 'caller-key', baseURL: gateway.url, maxRetries: 0 });
    const stream = client.messages.stream({
      model: ERROR_EVENT_MODEL,
      max_tokens: 200,
      messages: [{ role: 'user', content: 'hello' }],
    });
    await expect(stream.finalMessage()).rejects.toThrow(/Overloaded/);
  });
});
