import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, type Content } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDefaultHost } from 'ctxhost';
import { GatewaySectionSchema, settingsFrom, startGateway, type Gateway } from '@ctxhost/gateway';
import { startSimulator, type Simulator } from '@ctxhost/simulator';

// ctxhost gateway between each provider's real SDK and the simulator: a conversation that overflows
// the simulator's window when sent directly completes through the gateway, streaming and not.
const WINDOW = 6000;
const MODELS = { anthropic: 'claude-sonnet-4-6', openai: 'gpt-5', gemini: 'gemini-2.5-flash' } as const;

let sim: Simulator;
let gateway: Gateway;

function gatewaySettings(window: number) {
  const models = Object.fromEntries(Object.values(MODELS).map((model) => [model, { context_window: window }]));
  return settingsFrom(GatewaySectionSchema.parse({ models }), sim.url);
}

beforeAll(async () => {
  sim = await startSimulator({ contextLimit: WINDOW, acceptAnyModel: true });
  gateway = await startGateway({
    settings: gatewaySettings(WINDOW),
    host: () => createDefaultHost({ config: { store: { kind: 'memory' } } }),
  });
});
afterAll(async () => {
  await gateway.close();
  await sim.close();
});
beforeEach(() => {
  sim.requests.splice(0);
  sim.faults.clear();
});

const TURNS = 10;
/** About 700 tokens a turn: ten turns are well past the window. */
const userText = (turn: number) => `turn ${turn}: ${'remember the figure 42 for the ledger '.repeat(100)}`;

async function anthropicConversation(baseURL: string, stream: boolean): Promise<number> {
  const client = new Anthropic({ apiKey: 'caller-key', baseURL, maxRetries: 0 });
  const messages: Anthropic.MessageParam[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
    messages.push({ role: 'user', content: userText(turn) });
    const params = { model: MODELS.anthropic, max_tokens: 200, messages };
    const reply = stream ? await client.messages.stream(params).finalMessage() : await client.messages.create(params);
    expect(reply.content.length).toBeGreaterThan(0);
    messages.push({ role: 'assistant', content: reply.content });
  }
  return TURNS;
}

async function chatConversation(baseURL: string, stream: boolean): Promise<number> {
  const client = new OpenAI({ apiKey: 'caller-key', baseURL: `${baseURL}/v1`, maxRetries: 0 });
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'system', content: 'You are terse.' }];
  for (let turn = 0; turn < TURNS; turn++) {
    messages.push({ role: 'user', content: userText(turn) });
    let text = '';
    if (stream) {
      const chunks = await client.chat.completions.create({ model: MODELS.openai, messages, stream: true });
      for await (const chunk of chunks) text += chunk.choices[0]?.delta.content ?? '';
    } else {
      const reply = await client.chat.completions.create({ model: MODELS.openai, messages });
      text = reply.choices[0]?.message.content ?? '';
    }
    expect(text.length).toBeGreaterThan(0);
    messages.push({ role: 'assistant', content: text });
  }
  return TURNS;
}

async function responsesConversation(baseURL: string, stream: boolean): Promise<number> {
  const client = new OpenAI({ apiKey: 'caller-key', baseURL: `${baseURL}/v1`, maxRetries: 0 });
  const input: OpenAI.Responses.ResponseInputItem[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
    input.push({ role: 'user', content: userText(turn) });
    let text = '';
    if (stream) {
      const events = await client.responses.create({ model: MODELS.openai, input, stream: true, store: false });
      for await (const event of events) if (event.type === 'response.output_text.delta') text += event.delta;
    } else {
      const reply = await client.responses.create({ model: MODELS.openai, input, store: false });
      text = reply.output_text;
    }
    expect(text.length).toBeGreaterThan(0);
    input.push({ role: 'assistant', content: text });
  }
  return TURNS;
}

async function geminiConversation(baseUrl: string, stream: boolean): Promise<number> {
  const ai = new GoogleGenAI({ apiKey: 'caller-key', httpOptions: { baseUrl } });
  const contents: Content[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
    contents.push({ role: 'user', parts: [{ text: userText(turn) }] });
    let text = '';
    if (stream) {
      for await (const chunk of await ai.models.generateContentStream({ model: MODELS.gemini, contents }))
        text += chunk.text ?? '';
    } else text = (await ai.models.generateContent({ model: MODELS.gemini, contents })).text ?? '';
    expect(text.length).toBeGreaterThan(0);
    contents.push({ role: 'model', parts: [{ text }] });
  }
  return TURNS;
}

const CONVERSATIONS = {
  'Anthropic Messages (@anthropic-ai/sdk)': anthropicConversation,
  'OpenAI Chat Completions (openai)': chatConversation,
  'OpenAI Responses (openai)': responsesConversation,
  'Gemini generateContent (@google/genai)': geminiConversation,
};

describe.each(Object.entries(CONVERSATIONS))('%s', (_, conversation) => {
  it('overflows the window when sent directly', async () => {
    await expect(conversation(sim.url, false)).rejects.toThrow();
  });

  it.each([false, true])('completes every turn through the gateway (stream: %s)', async (stream) => {
    await expect(conversation(gateway.url, stream)).resolves.toBe(TURNS);
    expect(sim.requests.every((request) => request.status === 200)).toBe(true);
    expect(
      sim.requests.every(
        (request) =>
          request.headers['authorization'] === 'Bearer caller-key' ||
          request.headers['x-api-key'] === 'caller-key' ||
          request.headers['x-goog-api-key'] === 'caller-key',
      ),
    ).toBe(true);
  });
});

describe('honest to the client', () => {
  it('passes a provider error it cannot recover through unchanged, status, body and headers', async () => {
    sim.faults.next(1, { kind: 'rate_limit' });
    const direct = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: MODELS.anthropic, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(direct.status).toBe(429);
    const body = (await direct.json()) as { type: string; error: { type: string } };
    expect(body.error.type).toBe('rate_limit_error');
    expect(direct.headers.get('request-id')).toBe(sim.requests.at(-1)?.requestId);
  });

  it('leaves fields it does not know, and the messages it kept, exactly as sent', async () => {
    const body = {
      model: MODELS.anthropic,
      max_tokens: 50,
      metadata: { user_id: 'u-1' },
      unknown_field: { kept: true },
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', citations: null }] }],
    };
    const response = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': 'k',
        'anthropic-version': '2023-06-01',
        'x-custom': 'yes',
      },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    const received = sim.requests.at(-1)!;
    expect(received.headers['x-custom']).toBe('yes');
    expect(received.body).toMatchObject({ metadata: body.metadata, unknown_field: body.unknown_field });
    expect((received.body as typeof body).messages[0]!.content[0]).toMatchObject({
      type: 'text',
      text: 'hi',
      citations: null,
    });
  });

  it('recovers from an overflow the projection did not foresee: the caller sees an answer, not a 400', async () => {
    // A gateway that believes the window is far larger than the simulator's: only the provider's 400 tells it.
    const blind = await startGateway({
      settings: gatewaySettings(200_000),
      host: () => createDefaultHost({ config: { store: { kind: 'memory' } } }),
    });
    try {
      await expect(anthropicConversation(blind.url, false)).resolves.toBe(TURNS);
      expect(sim.requests.some((request) => request.status === 400)).toBe(true);
      expect(blind.handler.metrics.render()).toMatch(/ctxhost_gateway_recoveries_total [1-9]/);
    } finally {
      await blind.close();
    }
  });
});

describe('operations', () => {
  it('answers /healthz and /metrics', async () => {
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    const metrics = await (await fetch(`${gateway.url}/metrics`)).text();
    expect(metrics).toContain('# TYPE ctxhost_gateway_requests_total counter');
    expect(metrics).toContain('ctxhost_gateway_added_latency_seconds_count');
  });

  it('refuses a body over the limit in the provider’s own error shape', async () => {
    const small = await startGateway({
      settings: settingsFrom(GatewaySectionSchema.parse({ max_body_bytes: 100 }), sim.url),
      host: () => createDefaultHost({ config: { store: { kind: 'memory' } } }),
    });
    try {
      const response = await fetch(`${small.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-5', messages: [{ role: 'user', content: 'x'.repeat(500) }] }),
      });
      expect(response.status).toBe(413);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain('100 bytes');
    } finally {
      await small.close();
    }
  });
});
