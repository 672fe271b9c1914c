import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDefaultHost } from 'ctxhost';
import { GatewaySectionSchema, settingsFrom, startGateway, type Gateway } from '@ctxhost/gateway';
import { startSimulator, type Simulator } from '@ctxhost/simulator';

// What the gateway tells the caller and what it keeps: the provider's usage for what was really sent,
// cache breakpoints on the requests it forwards, and the caller's key nowhere on disk or in its output.
const WINDOW = 6000;
const MODEL = 'claude-sonnet-4-6';
const KEY = 'sk-ant-caller-Zq8xV3-never-stored';

let sim: Simulator;
let gateway: Gateway;
let store: string;
const printed: string[] = [];

beforeAll(async () => {
  store = await mkdtemp(join(tmpdir(), 'ctxhost-gateway-honesty-'));
  sim = await startSimulator({ contextLimit: WINDOW });
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const)
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' ')));
  const write = (chunk: unknown): boolean => (printed.push(String(chunk)), true);
  vi.spyOn(process.stderr, 'write').mockImplementation(write);
  vi.spyOn(process.stdout, 'write').mockImplementation(write);
  gateway = await startGateway({
    settings: settingsFrom(GatewaySectionSchema.parse({ models: { [MODEL]: { context_window: WINDOW } } }), sim.url),
    host: () => createDefaultHost({ config: { store: { kind: 'file', path: store } } }),
  });
});
afterAll(async () => {
  await gateway.close();
  await sim.close();
  vi.restoreAllMocks();
  await rm(store, { recursive: true, force: true });
});

/** Ten turns of about 700 tokens: well past the window, so the gateway compacts what it forwards. */
async function conversation(stream: boolean): Promise<Anthropic.Message[]> {
  const client = new Anthropic({ apiKey: KEY, baseURL: gateway.url, maxRetries: 0 });
  const messages: Anthropic.MessageParam[] = [];
  const replies: Anthropic.Message[] = [];
  for (let turn = 0; turn < 10; turn++) {
    messages.push({ role: 'user', content: `turn ${turn}: ${'remember the figure 42 for the ledger '.repeat(100)}` });
    const params = { model: MODEL, max_tokens: 200, messages };
    const reply = stream ? await client.messages.stream(params).finalMessage() : await client.messages.create(params);
    replies.push(reply);
    messages.push({ role: 'assistant', content: reply.content });
  }
  return replies;
}

/** The series behind the prompt-token, cache-read and tokens-saved figures of /metrics. */
const GATEWAY_SERIES = [
  'ctxhost_gateway_prompt_tokens_total{protocol="anthropic"}',
  'ctxhost_gateway_cache_read_tokens_total{protocol="anthropic"}',
  'ctxhost_gateway_tokens_saved_total',
];

/** A series' value in the gateway's /metrics text (0 before it is first counted). */
function metric(series: string): number {
  const line = gateway.handler.metrics
    .render()
    .split('\n')
    .find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe('the gateway is honest about what it sent and keeps no credential', () => {
  it.each([false, true])(
    "reports the provider's usage for the compacted request it really sent (stream: %s)",
    async (stream) => {
      sim.requests.splice(0);
      const replies = await conversation(stream);
      const upstream = sim.requests.filter((request) => request.path === '/v1/messages');
      expect(upstream).toHaveLength(replies.length);
      for (const [index, reply] of replies.entries()) {
        const usage = upstream[index]!.usage!;
        expect(reply.usage).toMatchObject({
          input_tokens: usage.input_tokens,
          output_tokens: usage.output_tokens,
          cache_read_input_tokens: usage.cache_read_input_tokens,
          cache_creation_input_tokens: usage.cache_creation_input_tokens,
        });
      }
      // What was sent was the projection, not the caller's whole history: the last prompt fits the window.
      const last = upstream.at(-1)!.usage!;
      expect(last.input_tokens + last.cache_read_input_tokens + last.cache_creation_input_tokens).toBeLessThan(WINDOW);
      expect(gateway.handler.metrics.render()).toMatch(/ctxhost_gateway_compactions_total [1-9]/);
    },
  );

  it('puts cache breakpoints on the Anthropic requests it forwards, and the provider reads the cache', async () => {
    sim.requests.splice(0);
    const before = GATEWAY_SERIES.map(metric);
    await conversation(false);
    const blocks = sim.requests.flatMap((request) =>
      ((request.body as { messages: { content: unknown }[] }).messages ?? []).flatMap((message) =>
        Array.isArray(message.content) ? (message.content as { cache_control?: unknown }[]) : [],
      ),
    );
    expect(blocks.some((block) => block.cache_control !== undefined)).toBe(true);
    expect(sim.requests.some((request) => (request.usage?.cache_read_input_tokens ?? 0) > 0)).toBe(true);
    // /metrics counts what the provider reported, so its cache-read share is the provider's.
    const [prompt, cacheRead, saved] = GATEWAY_SERIES.map((series, index) => metric(series) - before[index]!);
    const reported = sim.requests.map((request) => request.usage!);
    expect(prompt).toBe(
      reported.reduce(
        (sum, usage) => sum + usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens,
        0,
      ),
    );
    expect(cacheRead).toBe(reported.reduce((sum, usage) => sum + usage.cache_read_input_tokens, 0));
    expect(saved).toBeGreaterThan(0);
  });

  it("forwards the caller's key and writes it nowhere: not in the store, not to its output", async () => {
    const sentWith = (headers: Record<string, string>) =>
      headers['x-api-key'] === KEY || headers['authorization'] === `Bearer ${KEY}`;
    expect(sim.requests.length).toBeGreaterThan(0);
    expect(sim.requests.every((request) => sentWith(request.headers))).toBe(true);
    const files = await filesUnder(store);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(await readFile(file, 'utf8'), file).not.toContain(KEY);
    expect(printed.join('\n')).not.toContain(KEY);
    expect(gateway.handler.metrics.render()).not.toContain(KEY);
  });

  it('relays a stream as it arrives: the first block reaches the caller while the provider pauses mid-reply', async () => {
    sim.script({
      content: [
        { type: 'text', text: 'the first block, before the pause' },
        { type: 'text', text: 'the second block, after it' },
      ],
    });
    sim.faults.next(1, { kind: 'slow', delayMs: 2000, midStream: true });
    const client = new Anthropic({ apiKey: KEY, baseURL: gateway.url, maxRetries: 0 });
    const stream = client.messages.stream({
      model: MODEL,
      max_tokens: 200,
      messages: [{ role: 'user', content: 'hello' }],
    });
    const firstTextAt = new Promise<number>((resolve) => stream.on('text', () => resolve(performance.now())));
    const message = await stream.finalMessage();
    const endedAt = performance.now();
    expect(message.content).toHaveLength(2);
    // A gateway that buffered the reply would hand both blocks over together, after the provider's pause.
    expect(endedAt - (await firstTextAt)).toBeGreaterThan(1500);
  });
});
