import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, wrapLanguageModel, type LanguageModel, type ModelMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextManagementMiddleware } from '@ctxhost/ai-sdk';
import { startSimulator, type Simulator } from '@ctxhost/simulator';
import {
  SWITCH_WINDOW as WINDOW,
  createSwitchRig,
  expectOpenAILegAndBack,
  expectSummariesResolve,
  nativeParts,
  switchWork as work,
} from './support/native-switch-rig.js';

// One conversation through the AI SDK middleware, three providers' turns: @ai-sdk/anthropic (Anthropic
// compacts natively, on-demand), then @ai-sdk/openai's Responses model (it reads Anthropic's summary;
// OpenAI's responses/compact compacts, and its item goes back to it exactly), then @ai-sdk/anthropic again
// (it reads ctxhost's readable copy of OpenAI's encrypted item). Every original still resolves on the
// conversation's view.

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(async () => {
  await sim.close();
});

describe('switching provider mid-conversation through the AI SDK middleware', () => {
  it('goes Anthropic → OpenAI → Anthropic, each provider reading the other’s readable copy, originals resolving', async () => {
    const rig = createSwitchRig(sim);
    const { host, sessions, anthropicCompactions } = rig;
    const middleware = contextManagementMiddleware({ host, contextWindow: WINDOW });
    const claude = wrapLanguageModel({
      model: createAnthropic({ baseURL: `${sim.url}/v1`, apiKey: 'test' })('claude-sonnet-4-6'),
      middleware,
    });
    const gpt = wrapLanguageModel({
      model: createOpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'test' }).responses('gpt-5.2'),
      middleware,
    });
    const messages: ModelMessage[] = [];
    let step = 0;
    const send = async (model: LanguageModel, text: string) => {
      messages.push({ role: 'user', content: text });
      // store: false: the Responses model sends whole items, not references to items OpenAI stored.
      const result = await generateText({
        model,
        instructions: 'You are a billing engineer.',
        messages,
        maxOutputTokens: 64,
        providerOptions: { openai: { store: false } },
      });
      messages.push(...result.response.messages);
    };
    const until = async (model: LanguageModel, done: () => boolean) => {
      for (let turn = 0; turn < 12 && !done(); turn++) await send(model, work(step++));
      expect(done()).toBe(true);
    };

    // Anthropic: on-demand compaction of the span ctxhost chose; the next call sends the block first.
    await until(claude, () => anthropicCompactions() > 0);
    await send(claude, work(step++));
    const toAnthropic = sim.requests.at(-1)!;
    expect(toAnthropic.path).toBe('/v1/messages');
    expect(JSON.stringify(toAnthropic.body)).toContain('"type":"compaction"');
    const [view] = sessions;
    const session = await host.session(view!);
    const anthropicCopy = nativeParts(session.messages()).find((native) => native.vendor === 'anthropic')!;
    expect(anthropicCopy.readable).toContain('## Goal');

    await expectOpenAILegAndBack(
      rig,
      sim,
      session,
      anthropicCopy,
      { claude: (text) => send(claude, text), gpt: (text) => send(gpt, text) },
      () => work(step++),
    );

    // One view held the whole conversation, and the summaries' handles read back what they cover.
    expect(sessions.size).toBe(1);
    await expectSummariesResolve(session, /step \d+:|billing engineer/);
    await host.dispose();
  });
});
