import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { Agent } from '@mastra/core/agent';
import type { MastraModelConfig } from '@mastra/core/llm';
import { noopLogger } from '@mastra/core/logger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContextManagementProcessor } from '@ctxhost/mastra';
import { startSimulator, type Simulator } from '@ctxhost/simulator';
import {
  SWITCH_WINDOW as WINDOW,
  createSwitchRig,
  expectOpenAILegAndBack,
  expectSummariesResolve,
  nativeParts,
  switchWork as work,
} from './support/native-switch-rig.js';

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

describe('switching provider mid-conversation through the Mastra processor', () => {
  it('goes Anthropic → OpenAI → Anthropic, each provider reading the other’s readable copy, originals resolving', async () => {
    const rig = createSwitchRig(sim);
    const { host, sessions, anthropicCompactions } = rig;
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
