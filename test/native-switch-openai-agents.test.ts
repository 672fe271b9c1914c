import { createAnthropic } from '@ai-sdk/anthropic';
import OpenAI from 'openai';
import { Agent, OpenAIResponsesModel, run, setTracingDisabled, type AgentInputItem } from '@openai/agents';
import { aisdk } from '@openai/agents-extensions/ai-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContextManagement } from '@ctxhost/openai-agents';
import { startSimulator, type Simulator } from '@ctxhost/simulator';
import {
  SWITCH_WINDOW as WINDOW,
  createSwitchRig,
  expectOpenAILegAndBack,
  expectSummariesResolve,
  nativeParts,
  switchWork as work,
} from './support/native-switch-rig.js';

// One conversation through the Agents SDK integration, three providers' turns: Claude through the SDK's
// AI SDK adapter (@openai/agents-extensions aisdk() over @ai-sdk/anthropic; Anthropic compacts natively,
// on-demand), then OpenAIResponsesModel (it reads Anthropic's summary; OpenAI's responses/compact compacts,
// and its item goes back to it exactly), then Claude again (it reads ctxhost's readable copy of OpenAI's
// encrypted item, which the adapter could not carry). Every original still resolves on the view.

let sim: Simulator;
beforeAll(async () => {
  setTracingDisabled(true);
  sim = await startSimulator();
});
afterAll(async () => {
  await sim.close();
});

describe('switching provider mid-conversation through the OpenAI Agents SDK integration', () => {
  it('goes Claude (aisdk adapter) → OpenAIResponsesModel → Claude, each reading the other’s readable copy, originals resolving', async () => {
    const rig = createSwitchRig(sim);
    const { host, sessions, anthropicCompactions } = rig;
    const ctx = createContextManagement({ host, contextWindow: WINDOW });
    const agentOn = (model: Parameters<typeof ctx.wrapModel>[0]) =>
      new Agent({
        name: 'billing',
        instructions: 'You are a billing engineer.',
        model: ctx.wrapModel(model),
        // store: false: the Responses model sends whole items, not references to items OpenAI stored.
        modelSettings: { maxTokens: 64, store: false },
      });
    const claude = agentOn(aisdk(createAnthropic({ baseURL: `${sim.url}/v1`, apiKey: 'test' })('claude-sonnet-4-6')));
    const gpt = agentOn(
      new OpenAIResponsesModel(new OpenAI({ apiKey: 'test', baseURL: `${sim.url}/v1`, maxRetries: 0 }), 'gpt-5.2'),
    );
    let history: AgentInputItem[] = [];
    let step = 0;
    const send = async (agent: Agent, text: string) => {
      const result = await run(agent, [...history, { role: 'user', content: text }], {
        callModelInputFilter: ctx.callModelInputFilter,
      });
      history = result.history;
    };
    const until = async (agent: Agent, done: () => boolean) => {
      for (let turn = 0; turn < 12 && !done(); turn++) await send(agent, work(step++));
      expect(done()).toBe(true);
    };

    // Anthropic: on-demand compaction of the span ctxhost chose; the next call sends its summary first.
    await until(claude, () => anthropicCompactions() > 0);
    await send(claude, work(step++));
    const [view] = sessions;
    const session = await host.session(view!);
    const anthropicCopy = nativeParts(session.messages()).find((native) => native.vendor === 'anthropic')!;
    expect(anthropicCopy.readable).toContain('## Goal');
    const toAnthropic = sim.requests.at(-1)!;
    expect(toAnthropic.path).toBe('/v1/messages');
    expect(toAnthropic.status).toBe(200);
    expect(JSON.stringify(toAnthropic.body)).toContain(
      JSON.stringify(anthropicCopy.readable.slice(0, 60)).slice(1, -1),
    );

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
