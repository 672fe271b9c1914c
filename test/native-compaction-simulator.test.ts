import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ON_DEMAND_COMPACTION_BETA } from '@ctxhost/native-compaction';
import { openSummary, startSimulator, type Simulator } from '@ctxhost/simulator';

// Each native mechanism through its provider's real SDK against the simulator, with the APIs' error texts.

let sim: Simulator;
let anthropic: Anthropic;
let openai: OpenAI;
beforeAll(async () => {
  sim = await startSimulator();
  anthropic = new Anthropic({ apiKey: 'test', baseURL: sim.url, maxRetries: 0 });
  openai = new OpenAI({ apiKey: 'test', baseURL: `${sim.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await sim.close();
});

const paragraph = 'edited src/server/routes.ts and ran npm test, 3 failures in auth.test.ts; ';
function turns(count: number): { role: 'user' | 'assistant'; content: string }[] {
  return Array.from({ length: count }, (_, index) => [
    { role: 'user' as const, content: `step ${index}: ${paragraph.repeat(20)}` },
    { role: 'assistant' as const, content: `done step ${index}` },
  ]).flat();
}

async function rejection(call: Promise<unknown>): Promise<{ status: number; message: string; code?: string }> {
  try {
    await call;
  } catch (error) {
    const api = error as { status: number; error?: { error?: { message?: string }; message?: string; code?: string } };
    const message = api.error?.error?.message ?? api.error?.message ?? String(error);
    return { status: api.status, message, ...(api.error?.code === undefined ? {} : { code: api.error.code }) };
  }
  throw new Error('expected the request to be rejected');
}

describe('Anthropic on-demand compaction (compact-2026-09-04) through @anthropic-ai/sdk', () => {
  const messages = [...turns(30), { role: 'user' as const, content: 'what is left?' }];

  it('answers a compaction request with one compaction block, which a later request sends first', async () => {
    const compacted = await anthropic.beta.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 1024,
      messages,
      compaction: { type: 'summarize' },
      betas: [ON_DEMAND_COMPACTION_BETA],
    });
    expect(compacted.stop_reason).toBe('compaction');
    expect(compacted.content).toHaveLength(1);
    const block = compacted.content[0]!;
    if (block.type !== 'compaction') throw new Error(`expected a compaction block, got ${block.type}`);
    expect(block.content).toContain('## Goal');
    expect(openSummary(block.encrypted_content)).toBe(block.content);

    const full = await anthropic.beta.messages.countTokens({ model: 'claude-sonnet-4-6', messages });
    const next = await anthropic.beta.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 256,
      messages: [
        ...messages.slice(0, 4),
        { role: 'assistant', content: [block] },
        { role: 'user', content: 'go on with auth.test.ts' },
      ],
      betas: [ON_DEMAND_COMPACTION_BETA],
    });
    expect(next.stop_reason).toBe('end_turn');
    // Everything before the block is dropped by the server: the prompt is the summary plus the new message.
    expect(next.usage.input_tokens).toBeLessThan(full.input_tokens / 2);
  });

  it.each([
    ['without its beta', {}, [], 'compaction: Extra inputs are not permitted'],
    [
      'with another type',
      { compaction: { type: 'auto' } },
      [ON_DEMAND_COMPACTION_BETA],
      "compaction.type: Input should be 'summarize'",
    ],
    [
      'combined with context_management',
      { context_management: { edits: [] } },
      [ON_DEMAND_COMPACTION_BETA, 'context-management-2025-06-27'],
      'compaction: cannot be combined with context_management',
    ],
  ])('rejects a compaction request %s', async (_case, extra, betas, message) => {
    const body = {
      model: 'claude-sonnet-4-6',
      max_tokens: 64,
      messages: [{ role: 'user' as const, content: 'hi' }],
      compaction: { type: 'summarize' as const },
      ...extra,
    } as Anthropic.Beta.Messages.MessageCreateParamsNonStreaming;
    const failure = await rejection(anthropic.beta.messages.create({ ...body, betas }));
    expect(failure).toMatchObject({ status: 400, message });
  });
});

describe('OpenAI Responses inline compaction through openai', () => {
  const input = [...turns(30), { role: 'user' as const, content: 'what is left?' }];

  it('over compact_threshold: an encrypted compaction item first in output, which stands for the history after', async () => {
    const response = await openai.responses.create({
      model: 'gpt-5.2',
      input,
      context_management: [{ type: 'compaction', compact_threshold: 2_000 }],
    });
    const [item, ...rest] = response.output;
    if (item?.type !== 'compaction') throw new Error(`expected a compaction item first, got ${item?.type}`);
    expect(item.id).toMatch(/^cmp_/);
    expect(openSummary(item.encrypted_content)).toContain('## Goal');
    expect(rest.some((output) => output.type === 'message')).toBe(true);

    const next = await openai.responses.create({
      model: 'gpt-5.2',
      input: [
        ...input,
        { type: 'compaction', id: item.id, encrypted_content: item.encrypted_content },
        { role: 'user', content: 'go on' },
      ],
    });
    expect(
      next.output.map((item) => item.type),
      JSON.stringify(next.output),
    ).toContain('message');
    expect(next.usage!.input_tokens).toBeLessThan(response.usage!.input_tokens / 2);
  });

  it('below compact_threshold: no compaction', async () => {
    const response = await openai.responses.create({
      model: 'gpt-5.2',
      input: 'hello',
      context_management: [{ type: 'compaction', compact_threshold: 200_000 }],
    });
    expect(response.output.map((item) => item.type)).toEqual(['message']);
  });

  it('streams the compaction item as an output item', async () => {
    const stream = await openai.responses.create({
      model: 'gpt-5.2',
      input,
      stream: true,
      context_management: [{ type: 'compaction', compact_threshold: 2_000 }],
    });
    const done: string[] = [];
    for await (const event of stream) if (event.type === 'response.output_item.done') done.push(event.item.type);
    expect(done[0]).toBe('compaction');
  });

  it.each([
    [[{ type: 'clear', compact_threshold: 10 }], "Invalid value: 'clear'. Supported values are: 'compaction'."],
    [
      [{ type: 'compaction', compact_threshold: 0 }],
      "Invalid 'context_management[0].compact_threshold': integer below minimum value. Expected a value >= 1, but got 0 instead.",
    ],
  ])('rejects context_management %j with OpenAI’s text', async (contextManagement, message) => {
    const failure = await rejection(
      openai.responses.create({
        model: 'gpt-5.2',
        input: 'hi',
        context_management: contextManagement,
      }),
    );
    expect(failure).toMatchObject({ status: 400, message });
  });

  it('rejects a compaction item it did not make as invalid_encrypted_content', async () => {
    const failure = await rejection(
      openai.responses.create({
        model: 'gpt-5.2',
        input: [
          { type: 'compaction', id: 'cmp_x', encrypted_content: 'gAAAAABothersigned==' },
          { role: 'user', content: 'go on' },
        ],
      }),
    );
    expect(failure).toMatchObject({ status: 400, message: 'The encrypted content gAAA...ed== could not be verified.' });
  });
});

describe('OpenAI responses/compact through openai', () => {
  it('returns the user messages and one encrypted compaction item the simulator can read back', async () => {
    const input = [...turns(10), { role: 'user' as const, content: 'what is left?' }];
    const compacted = await openai.responses.compact({ model: 'gpt-5.2', input });
    expect(compacted.object).toBe('response.compaction');
    const last = compacted.output.at(-1)!;
    if (last.type !== 'compaction') throw new Error(`expected a compaction item last, got ${last.type}`);
    expect(
      compacted.output.slice(0, -1).every((item) => item.type === 'message' && (item.role as string) === 'user'),
    ).toBe(true);
    expect(compacted.output).toHaveLength(11 + 1);
    expect(openSummary(last.encrypted_content)).toMatch(/## Goal[\s\S]*routes\.ts/);
    expect(compacted.usage.input_tokens).toBeGreaterThan(compacted.usage.output_tokens);
  });

  it('refuses a prompt over the window with the Responses overflow', async () => {
    const small = await startSimulator({ contextLimit: 1_000 });
    try {
      const client = new OpenAI({ apiKey: 'test', baseURL: `${small.url}/v1`, maxRetries: 0 });
      const failure = await rejection(client.responses.compact({ model: 'gpt-5.2', input: turns(10) }));
      expect(failure.status).toBe(400);
      expect(failure.message).toMatch(/exceeds the context window/);
    } finally {
      await small.close();
    }
  });
});
