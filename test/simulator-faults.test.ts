import Anthropic from '@anthropic-ai/sdk';

type ApiError = InstanceType<typeof Anthropic.APIError>;
import { afterEach, describe, expect, it } from 'vitest';
import { buildSummary, startSimulator, SUMMARY_HEADINGS, type Simulator } from '@ctxhost/simulator';

let simulator: Simulator | undefined;
afterEach(async () => {
  await simulator?.close();
  simulator = undefined;
});

const params = { model: 'claude-sonnet-4-6', max_tokens: 50, messages: [{ role: 'user' as const, content: 'hello' }] };

async function setUp(options: Parameters<typeof startSimulator>[0] = {}) {
  simulator = await startSimulator(options);
  return { sim: simulator, client: new Anthropic({ apiKey: 'test', baseURL: simulator.url, maxRetries: 0 }) };
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('simulator: faults on demand', () => {
  it('answers 429 with retry-after, then recovers', async () => {
    const { client, sim } = await setUp();
    sim.faults.next(1, { kind: 'rate_limit', retryAfterSeconds: 3 });
    const error = await caught(client.messages.create(params));
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    expect((error as ApiError).headers?.get('retry-after')).toBe('3');
    await expect(client.messages.create(params)).resolves.toMatchObject({ type: 'message' });
  });

  it.each([
    ['overloaded' as const, 529, 'overloaded_error'],
    ['server_error' as const, 500, 'api_error'],
  ])('answers %s with HTTP %i', async (kind, status, type) => {
    const { client, sim } = await setUp();
    sim.faults.at(1, kind);
    const error = (await caught(client.messages.create(params))) as ApiError;
    expect(error.status).toBe(status);
    expect(error.error).toMatchObject({ error: { type } });
  });

  it('drops the connection', async () => {
    const { client, sim } = await setUp();
    sim.faults.next(1, 'drop');
    expect(await caught(client.messages.create(params))).toBeInstanceOf(Anthropic.APIConnectionError);
  });

  it('sends an SSE error event after a 200', async () => {
    const { client, sim } = await setUp();
    sim.faults.next(1, 'sse_error');
    const error = await caught(client.messages.stream(params).finalMessage());
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect((error as ApiError).status).toBeUndefined();
    expect(String((error as Error).message)).toContain('overloaded_error');
  });

  it('is slow on demand', async () => {
    const { client, sim } = await setUp();
    sim.faults.next(1, { kind: 'slow', delayMs: 50 });
    await expect(client.messages.create(params)).resolves.toMatchObject({ type: 'message' });
    expect(sim.requests[0]?.fault).toBe('slow');
  });

  it('injects random faults repeatably with a seed', async () => {
    const run = async () => {
      const { client, sim } = await setUp({ faults: { probability: 0.5, seed: 42, kinds: ['overloaded'] } });
      for (let i = 0; i < 10; i++) await caught(client.messages.create(params));
      const pattern = sim.requests.map((request) => request.status).join(',');
      await sim.close();
      simulator = undefined;
      return pattern;
    };
    const first = await run();
    expect(first).toMatch(/529/);
    expect(first).toMatch(/200/);
    expect(await run()).toBe(first);
  });

  it('faults by predicate, only the matching requests', async () => {
    const { client, sim } = await setUp();
    sim.faults.when((request) => JSON.stringify(request.messages).includes('deploy'), 'overloaded');
    await expect(client.messages.create(params)).resolves.toMatchObject({ type: 'message' });
    const error = (await caught(
      client.messages.create({ ...params, messages: [{ role: 'user', content: 'deploy now' }] }),
    )) as ApiError;
    expect(error).toBeInstanceOf(Anthropic.InternalServerError);
    expect(error.status).toBe(529);
    expect(sim.requests.map((request) => request.fault ?? '-')).toEqual(['-', 'overloaded']);
  });

  it('numbers requests over /v1/messages only, and leaves count_tokens alone', async () => {
    const { client, sim } = await setUp();
    sim.faults.at(2, 'server_error');
    await client.messages.countTokens({ model: params.model, messages: params.messages });
    await client.messages.create(params);
    expect(((await caught(client.messages.create(params))) as ApiError).status).toBe(500);
    expect(sim.requests.map((request) => request.status)).toEqual([200, 200, 500]);
  });

  it.each([
    ['rate_limit' as const, Anthropic.RateLimitError],
    ['overloaded' as const, Anthropic.InternalServerError],
    ['server_error' as const, Anthropic.InternalServerError],
  ])('answers %s before a stream starts as an HTTP error', async (kind, errorClass) => {
    const { client } = await setUp();
    simulator!.faults.next(1, kind);
    expect(await caught(client.messages.stream(params).finalMessage())).toBeInstanceOf(errorClass);
  });

  it('answers sse_error on a non-streaming request with a 500, and records a dropped connection with status 0', async () => {
    const { client, sim } = await setUp();
    sim.faults.next(1, 'sse_error');
    expect(((await caught(client.messages.create(params))) as ApiError).status).toBe(500);
    sim.faults.next(1, 'drop');
    await caught(client.messages.stream(params).finalMessage());
    expect(sim.requests.map((request) => [request.status, request.fault])).toEqual([
      [500, 'sse_error'],
      [0, 'drop'],
    ]);
  });

  it('lets the SDK’s own retries get through faults for the next N requests', async () => {
    simulator = await startSimulator();
    const client = new Anthropic({ apiKey: 'test', baseURL: simulator.url, maxRetries: 2 });
    simulator.faults.next(2, { kind: 'rate_limit', retryAfterSeconds: 0 });
    await expect(client.messages.create(params)).resolves.toMatchObject({ type: 'message' });
    expect(simulator.requests.map((request) => [request.status, request.headers['x-stainless-retry-count']])).toEqual([
      [429, '0'],
      [429, '1'],
      [200, '2'],
    ]);
  });

  it('replays a transcript’s assistant turns in order', async () => {
    const { client } = await setUp({
      replay: [{ content: 'first recorded answer' }, { content: 'second recorded answer' }],
    });
    const one = await client.messages.create(params);
    const two = await client.messages.create(params);
    expect([one.content[0], two.content[0]]).toMatchObject([
      { text: 'first recorded answer' },
      { text: 'second recorded answer' },
    ]);
  });
});

describe('simulator: summarization requests', () => {
  const template = SUMMARY_HEADINGS.map((heading) => `## ${heading}\n...`).join('\n');

  it('answers a request carrying the template with a structured summary of its own content', async () => {
    const { client } = await setUp();
    const span =
      'user asked: fix the failing build in src/app.ts\n$ npm run build\nerror TS2322: Type string is not assignable\nthen edited packages/core/src/index.ts';
    const message = await client.messages.create({
      ...params,
      max_tokens: 2000,
      system: `Summarize using exactly these sections:\n${template}`,
      messages: [{ role: 'user', content: span }],
    });
    const text = message.content[0]?.type === 'text' ? message.content[0].text : '';
    for (const heading of SUMMARY_HEADINGS) expect(text).toContain(`## ${heading}`);
    expect(text).toContain('src/app.ts');
    expect(text).toContain('packages/core/src/index.ts');
    expect(text).toContain('npm run build');
    expect(text).toContain('error TS2322');
  });

  it('carries the previous summary’s Done items into the update', () => {
    const previous = '### Done\n- migrated the config loader\n';
    const summary = buildSummary({
      messages: [{ role: 'user', content: `${template}\nPrevious summary:\n${previous}` }],
    });
    expect(summary).toContain('- migrated the config loader');
  });

  it('answers an ordinary request normally', async () => {
    const { client } = await setUp();
    const message = await client.messages.create({
      ...params,
      messages: [{ role: 'user', content: '## Goal\nonly one heading' }],
    });
    expect(message.content[0]).toMatchObject({ text: expect.stringContaining('Simulated reply') });
  });
});
