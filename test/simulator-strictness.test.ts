import Anthropic from '@anthropic-ai/sdk';
import { startSimulator, type Simulator } from '@ctxhost/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let simulator: Simulator;
let lenient: Simulator;
let client: Anthropic;
beforeAll(async () => {
  [simulator, lenient] = await Promise.all([startSimulator(), startSimulator({ acceptAnyModel: true })]);
  client = new Anthropic({ apiKey: 'offline', baseURL: simulator.url, maxRetries: 0 });
});
afterAll(async () => {
  await Promise.all([simulator.close(), lenient.close()]);
});

const hello = [{ role: 'user' as const, content: 'hello' }];

describe('the simulator refuses what the API refuses', () => {
  it('a request without the anthropic-version header', async () => {
    const response = await fetch(`${simulator.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 10, messages: hello }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'anthropic-version: header is required' },
    });
  });

  it('a model it does not serve, with a 404 the SDK raises as NotFoundError (on count_tokens too)', async () => {
    const error = await client.messages
      .create({ model: 'claude-imaginary-9', max_tokens: 10, messages: hello })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    expect((error as InstanceType<typeof Anthropic.NotFoundError>).error).toMatchObject({
      error: { type: 'not_found_error', message: 'model: claude-imaginary-9' },
    });
    await expect(client.messages.countTokens({ model: 'claude-imaginary-9', messages: hello })).rejects.toBeInstanceOf(
      Anthropic.NotFoundError,
    );
  });

  it("max_tokens above the model's output limit, from the model registry", async () => {
    const error = await client.messages
      .create({ model: 'claude-3-haiku-20240307', max_tokens: 5_000, messages: hello })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as Error).message).toContain(
      'max_tokens: 5000 > 4096, which is the maximum allowed number of output tokens for claude-3-haiku-20240307',
    );
    await expect(
      client.messages.create({ model: 'claude-3-haiku-20240307', max_tokens: 4_096, messages: hello }),
    ).resolves.toMatchObject({ type: 'message' });
  });

  it('takes the largest output limit any source states: @ai-sdk/anthropic sends 128,000 for claude-sonnet-4-6, the data says 64,000', async () => {
    await expect(
      // An explicit timeout: the SDK refuses a large max_tokens without streaming unless one is given.
      client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 128_000, messages: hello }, { timeout: 30_000 }),
    ).resolves.toMatchObject({ type: 'message' });
    await expect(
      client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 128_001, messages: hello }, { timeout: 30_000 }),
    ).rejects.toThrow('max_tokens: 128001 > 128000');
    await expect(
      client.messages.create({ model: 'claude-sonnet-4-0', max_tokens: 64_001, messages: hello }, { timeout: 30_000 }),
    ).rejects.toThrow('max_tokens: 64001 > 64000');
  });

  it('answers a dated or aliased name of a known model, and any name when told to', async () => {
    await expect(
      client.messages.create({ model: 'claude-sonnet-4-20250514', max_tokens: 10, messages: hello }),
    ).resolves.toMatchObject({ type: 'message' });
    const any = new Anthropic({ apiKey: 'offline', baseURL: lenient.url, maxRetries: 0 });
    await expect(
      any.messages.create({ model: 'my-own-model', max_tokens: 10, messages: hello }),
    ).resolves.toMatchObject({ type: 'message', model: 'my-own-model' });
  });
});
