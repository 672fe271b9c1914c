import Anthropic from '@anthropic-ai/sdk';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { Agent } from '@mastra/core/agent';
import type { MastraModelConfig } from '@mastra/core/llm';
import { noopLogger } from '@mastra/core/logger';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicCompactor } from '@ctxhost/anthropic';
import { compressorEngineFactory } from '@ctxhost/compressor';
import { createHost, nativeCompactionOf, readOriginal, withDefaults, type Message } from '@ctxhost/core';
import { createContextManagementProcessor } from '@ctxhost/mastra';
import { createNativeCompactionEngine } from '@ctxhost/native-compaction';
import { createOpenAICompactor } from '@ctxhost/openai';
import { startSimulator, type Simulator } from '@ctxhost/simulator';

// One conversation through the Mastra processor, three providers' turns: a Mastra agent on
// @ai-sdk/anthropic (Anthropic compacts natively, on-demand; its summary goes as text, the block's beta
// being out of a processor's reach), then on @ai-sdk/openai's Responses model (it reads Anthropic's
// summary; OpenAI's responses/compact compacts, and its item goes back to it exactly), then on
// @ai-sdk/anthropic again (it reads ctxhost's readable copy of OpenAI's encrypted item). Every original
// still resolves on the conversation's view.

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(async () => {
  await sim.close();
});

const WINDOW = 12_000;
const work = (step: number) =>
  `step ${step}: edit src/billing/invoice-${step}.ts, run npm test -- invoice-${step}; ${'the invoice totals must round half-even; '.repeat(60)}`;
const nativeParts = (messages: readonly Message[]) =>
  messages.flatMap((message) => message.parts.flatMap((part) => nativeCompactionOf(part) ?? []));

describe('switching provider mid-conversation through the Mastra processor', () => {
  it('goes Anthropic → OpenAI → Anthropic, each provider reading the other’s readable copy, originals resolving', async () => {
    let vendor: 'anthropic' | 'openai' = 'anthropic';
    const compactors = {
      anthropic: createAnthropicCompactor(new Anthropic({ apiKey: 'test', baseURL: sim.url, maxRetries: 0 }), {
        model: 'claude-sonnet-4-6',
      }),
      openai: createOpenAICompactor(new OpenAI({ apiKey: 'test', baseURL: `${sim.url}/v1`, maxRetries: 0 }), {
        model: 'gpt-5.2',
      }),
    };
    const fallbacks: string[] = [];
    const sessions = new Set<string>();
    const host = createHost({
      config: { model: { contextLength: WINDOW } },
      engine: createNativeCompactionEngine({
        compactor: () => compactors[vendor],
        fallback: compressorEngineFactory({ config: withDefaults({ model: { contextLength: WINDOW } }) }),
        trigger: 0.5,
        keepTailTokens: 1_500,
        onFallback: (reason) => fallbacks.push(reason),
      }),
    });
    host.hooks.compactionCompleted.tap('test', (event) => void sessions.add(event.sessionId));
    const processor = createContextManagementProcessor({ host, contextWindow: WINDOW });
    // (The AI SDK models' LanguageModelV4 type is a newer patch than the one Mastra's types bundle; the objects are the same at run time.)
    const agentOn = (model: unknown) => {
      const agent = new Agent({
        id: 'billing',
        name: 'billing',
        instructions: 'You are a billing engineer.',
        model: model as MastraModelConfig,
        inputProcessors: [processor],
        errorProcessors: [processor],
        maxProcessorRetries: 3,
      });
      agent.__setLogger(noopLogger);
      return agent;
    };
    const claude = agentOn(createAnthropic({ baseURL: `${sim.url}/v1`, apiKey: 'test' })('claude-sonnet-4-6'));
    const gpt = agentOn(createOpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'test' }).responses('gpt-5.2'));
    type Turn = { role: 'user' | 'assistant'; content: string };
    const messages: Turn[] = [];
    let step = 0;
    const send = async (agent: Agent, text: string) => {
      messages.push({ role: 'user', content: text });
      // store: false: the Responses model sends whole items, not references to items OpenAI stored.
      const result = await agent.generate(messages as Parameters<Agent['generate']>[0], {
        modelSettings: { maxOutputTokens: 64 },
        providerOptions: { openai: { store: false } },
      });
      messages.push({ role: 'assistant', content: result.text });
    };
    const compactedBy = (path: string) => sim.requests.filter((request) => request.path === path).length;
    const anthropicCompactions = () =>
      sim.requests.filter(
        (request) =>
          request.path === '/v1/messages' && (request.body as Record<string, unknown>)['compaction'] !== undefined,
      ).length;
    const until = async (agent: Agent, done: () => boolean) => {
      for (let turn = 0; turn < 12 && !done(); turn++) await send(agent, work(step++));
      expect(done()).toBe(true);
    };

    // Anthropic: on-demand compaction of the span ctxhost chose; the next call sends its summary first, as text.
    await until(claude, () => anthropicCompactions() > 0);
    await send(claude, work(step++));
    const toAnthropic = sim.requests.at(-1)!;
    expect(toAnthropic.path).toBe('/v1/messages');
    expect(toAnthropic.status).toBe(200);
    const [view] = sessions;
    const session = await host.session(view!);
    const anthropicCopy = nativeParts(session.messages()).find((native) => native.vendor === 'anthropic')!;
    expect(anthropicCopy.readable).toContain('## Goal');
    const opening = (toAnthropic.body as { messages: { role: string; content: unknown }[] }).messages[0]!;
    expect(opening.role).toBe('user');
    expect(JSON.stringify(opening.content)).toContain(JSON.stringify(anthropicCopy.readable.slice(0, 60)).slice(1, -1));

    // OpenAI's Responses model: Anthropic's block goes as its readable summary, never as a compaction block.
    vendor = 'openai';
    await send(gpt, work(step++));
    const firstToOpenAI = sim.requests.at(-1)!;
    expect(firstToOpenAI.path).toBe('/v1/responses');
    expect(firstToOpenAI.status).toBe(200);
    const openAIBody = JSON.stringify(firstToOpenAI.body);
    expect(openAIBody).toContain(JSON.stringify(anthropicCopy.readable.slice(0, 60)).slice(1, -1));
    expect(openAIBody).not.toContain('"type":"compaction"');
    await until(gpt, () => compactedBy('/v1/responses/compact') > 0);
    const openAICopy = nativeParts(session.messages()).find((native) => native.vendor === 'openai')!;
    expect(openAICopy.readable.length).toBeGreaterThan(100);
    // To OpenAI itself, its item goes back exactly (@ai-sdk/openai's compaction part).
    await send(gpt, work(step++));
    expect(sim.requests.at(-1)!.status).toBe(200);
    const input = (sim.requests.at(-1)!.body as { input: Record<string, unknown>[] }).input;
    expect(input.filter((item) => item['type'] === 'compaction')).toEqual([
      { type: 'compaction', id: openAICopy.fields['id'], encrypted_content: openAICopy.fields['encrypted_content'] },
    ]);

    // Back to Anthropic: OpenAI's encrypted item goes as ctxhost's readable copy.
    vendor = 'anthropic';
    await send(claude, 'what is left to do on the invoices?');
    const last = sim.requests.at(-1)!;
    expect(last.path).toBe('/v1/messages');
    expect(last.status).toBe(200);
    const lastBody = JSON.stringify(last.body);
    expect(lastBody).not.toContain('ctxsim1.');
    expect(lastBody).toContain(JSON.stringify(openAICopy.readable.slice(0, 60)).slice(1, -1));
    expect(fallbacks).toEqual([]);

    // One view held the whole conversation, and the summaries' handles read back what they cover.
    expect(sessions.size).toBe(1);
    const summaries = session.messages().filter((message) => message.meta?.['nativeCompaction'] !== undefined);
    expect(summaries.length).toBeGreaterThan(0);
    for (const summary of summaries) {
      const original = await readOriginal(session, { handle: `${summary.id}#1` });
      expect(original.isError, JSON.stringify(original)).toBeUndefined();
      expect(original.output).toMatch(/step \d+:|billing engineer/);
    }
    await host.dispose();
  });
});
