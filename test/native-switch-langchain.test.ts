import { ChatAnthropic } from '@langchain/anthropic';
import { HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent } from 'langchain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextManagementMiddleware } from '@ctxhost/langchain';
import { startSimulator, type Simulator } from '@ctxhost/simulator';
import {
  SWITCH_WINDOW as WINDOW,
  createSwitchRig,
  expectOpenAILegAndBack,
  expectSummariesResolve,
  nativeParts,
  switchWork as work,
} from './support/native-switch-rig.js';

// One conversation through the LangChain middleware, three providers' turns: ChatAnthropic (Anthropic
// compacts natively, on-demand), then ChatOpenAI on the Responses API (it reads Anthropic's summary;
// OpenAI's responses/compact compacts, and its item goes back to it exactly), then ChatAnthropic again
// (it reads ctxhost's readable copy of OpenAI's encrypted item). Every original still resolves on the
// conversation's view.

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(async () => {
  await sim.close();
});

describe('switching provider mid-conversation through the LangChain middleware', () => {
  it('goes ChatAnthropic → ChatOpenAI (Responses) → ChatAnthropic, each reading the other’s readable copy, originals resolving', async () => {
    const rig = createSwitchRig(sim);
    const { host, sessions, anthropicCompactions } = rig;
    const middleware = contextManagementMiddleware({ host, contextWindow: WINDOW });
    const claude = createAgent({
      model: new ChatAnthropic({
        model: 'claude-sonnet-4-6',
        apiKey: 'test',
        anthropicApiUrl: sim.url,
        maxRetries: 0,
        maxTokens: 64,
      }),
      tools: [],
      middleware: [middleware],
    });
    // zdrEnabled: store false, whole items sent rather than references to items OpenAI stored.
    const gpt = createAgent({
      model: new ChatOpenAI({
        model: 'gpt-5.2',
        apiKey: 'test',
        configuration: { baseURL: `${sim.url}/v1` },
        maxRetries: 0,
        maxTokens: 64,
        useResponsesApi: true,
        zdrEnabled: true,
      }),
      tools: [],
      middleware: [middleware],
    });
    type Agent = typeof claude;
    let messages: BaseMessage[] = [new SystemMessage('You are a billing engineer.')];
    let step = 0;
    const send = async (agent: Agent, text: string) => {
      const result = await agent.invoke({ messages: [...messages, new HumanMessage(text)] });
      messages = result.messages;
    };
    const until = async (agent: Agent, done: () => boolean) => {
      for (let turn = 0; turn < 12 && !done(); turn++) await send(agent, work(step++));
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
