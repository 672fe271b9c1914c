import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createAnthropicCompactor, createAnthropicModel } from '@ctxhost/anthropic';
import { compressorEngineFactory } from '@ctxhost/compressor';
import { createHost, nativeCompactionOf, readOriginal, withDefaults, type Message } from '@ctxhost/core';
import { createCompactAtIdle, createNativeCompactionEngine } from '@ctxhost/native-compaction';
import { createOpenAICompactor, createOpenAIModel } from '@ctxhost/openai';
import { openSummary, startSimulator, type Simulator } from '@ctxhost/simulator';

// One session, three providers' turns: Anthropic (compacted natively by Anthropic), then OpenAI (its chat
// model reads Anthropic's summary; OpenAI's responses/compact compacts), then Anthropic again (reading
// ctxhost's readable copy of OpenAI's encrypted item). Nothing is lost on the way: every original resolves.

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

const WINDOW = 12_000;
const work = (step: number) =>
  `step ${step}: edit src/billing/invoice-${step}.ts, run npm test -- invoice-${step}; ${'the invoice totals must round half-even; '.repeat(60)}`;

function nativeParts(messages: readonly Message[]) {
  return messages.flatMap((message) => message.parts.flatMap((part) => nativeCompactionOf(part) ?? []));
}

describe('switching provider mid-session with native compaction', () => {
  it('goes Anthropic → OpenAI → Anthropic, each compaction native, each provider reading what it can', async () => {
    let vendor: 'anthropic' | 'openai' = 'anthropic';
    const compactors = {
      anthropic: createAnthropicCompactor(anthropic, { model: 'claude-sonnet-4-6' }),
      openai: createOpenAICompactor(openai, { model: 'gpt-5.2' }),
    };
    const fallbacks: string[] = [];
    const host = createHost({
      engine: createNativeCompactionEngine({
        compactor: () => compactors[vendor],
        fallback: compressorEngineFactory({ config: withDefaults({}) }),
        trigger: 0.5,
        keepTailTokens: 1_500,
        onFallback: (reason) => fallbacks.push(reason),
      }),
    });
    const system = 'You are a billing engineer.';
    const claude = createAgent({
      host,
      system,
      model: createAnthropicModel(anthropic, { model: 'claude-sonnet-4-6', contextWindow: WINDOW }),
    });
    const gpt = createAgent({
      host,
      system,
      model: createOpenAIModel(openai, { model: 'gpt-5.2', contextWindow: WINDOW }),
    });
    const session = await host.session('switch');
    let step = 0;
    async function until(agent: typeof claude, done: () => boolean) {
      for (let turn = 0; turn < 12 && !done(); turn++) {
        const outcome = await agent.send('switch', work(step++));
        expect(outcome.status, JSON.stringify(outcome)).toBe('done');
      }
      expect(done()).toBe(true);
    }

    await until(claude, () => nativeParts(session.messages()).some((native) => native.vendor === 'anthropic'));
    const anthropicCompaction = nativeParts(session.messages()).find((native) => native.vendor === 'anthropic')!;
    expect(anthropicCompaction.readable).toContain('## Goal');
    // The next Anthropic request sent the block back as a compaction block.
    expect((await claude.send('switch', work(step++))).status).toBe('done');
    expect(JSON.stringify(sim.requests.at(-1)!.body)).toContain('"type":"compaction"');

    vendor = 'openai';
    await until(gpt, () => nativeParts(session.messages()).some((native) => native.vendor === 'openai'));
    const openaiCompaction = nativeParts(session.messages()).find((native) => native.vendor === 'openai')!;
    expect(openSummary(openaiCompaction.fields['encrypted_content'])).toContain('## Goal');
    expect(openaiCompaction.readable.length).toBeGreaterThan(100);
    expect(sim.requests.some((request) => request.path === '/v1/responses/compact')).toBe(true);

    vendor = 'anthropic';
    const outcome = await claude.send('switch', 'what is left to do on the invoices?');
    expect(outcome.status, JSON.stringify(outcome)).toBe('done');
    const last = JSON.stringify(sim.requests.at(-1)!.body);
    expect(last).not.toContain('ctxsim1.');
    expect(last).toContain(openaiCompaction.readable.slice(0, 40));
    expect(fallbacks).toEqual([]);

    // Nothing was lost: the store holds every step, and the summary's handle reads back the first one.
    const texts = session.history().map((message) => JSON.stringify(message.parts));
    for (let each = 0; each < step; each++) expect(texts.some((text) => text.includes(`step ${each}:`))).toBe(true);
    const summary = session.messages().find((message) => message.meta?.['nativeCompaction'] !== undefined)!;
    const original = await readOriginal(session, { handle: `${summary.id}#1` });
    expect(original.isError).toBeUndefined();
    await host.dispose();
  });

  it('falls back to the client engine when the provider refuses, and the report says why', async () => {
    const reasons: string[] = [];
    const notes: string[] = [];
    const host = createHost({
      engine: createNativeCompactionEngine({
        compactor: createAnthropicCompactor(anthropic, { model: 'claude-no-such-model' }),
        fallback: compressorEngineFactory({ config: withDefaults({}) }),
        trigger: 0.5,
        keepTailTokens: 1_500,
        onFallback: (reason) => reasons.push(reason),
      }),
    });
    host.hooks.compactionCompleted.tap('test', (event) => {
      notes.push(...(event.report.notes ?? []));
    });
    const agent = createAgent({
      host,
      model: createAnthropicModel(anthropic, { model: 'claude-sonnet-4-6', contextWindow: WINDOW }),
    });
    for (let step = 0; step < 14; step++) expect((await agent.send('fallback', work(step))).status).toBe('done');
    const session = await host.session('fallback');
    expect(nativeParts(session.messages())).toEqual([]);
    expect(
      session.messages().some((message) => message.meta?.summary?.engine === 'compressor'),
      JSON.stringify({ reasons, notes }),
    ).toBe(true);
    expect(reasons[0]).toMatch(/anthropic claude-no-such-model failed/);
    expect(
      notes.some((note) =>
        /native compaction: anthropic claude-no-such-model failed .*compressor compacted instead/.test(note),
      ),
    ).toBe(true);
    await host.dispose();
  });

  it('compacts at session.idle, ahead of need, with the provider’s pass', async () => {
    const reasons: string[] = [];
    const host = createHost({
      engine: createNativeCompactionEngine({
        compactor: createAnthropicCompactor(anthropic, { model: 'claude-sonnet-4-6' }),
        fallback: compressorEngineFactory({ config: withDefaults({}) }),
        trigger: 0.95,
        keepTailTokens: 1_500,
      }),
      plugins: [createCompactAtIdle({ trigger: 0.4 })],
    });
    host.hooks.compactionCompleted.tap('test', (event) => {
      reasons.push(`${event.report.engine}:${event.report.reason}`);
    });
    const agent = createAgent({
      host,
      model: createAnthropicModel(anthropic, { model: 'claude-sonnet-4-6', contextWindow: WINDOW }),
    });
    const session = await host.session('idle');
    for (let step = 0; step < 14 && reasons.length === 0; step++)
      expect((await agent.send('idle', work(step))).status).toBe('done');
    expect(reasons[0]).toBe('native-compaction:preemptive');
    expect(nativeParts(session.messages()).map((native) => native.vendor)).toEqual(['anthropic']);
    expect(session.promptSize().tokens).toBeLessThan(0.4 * WINDOW);
    await host.dispose();
  });
});
