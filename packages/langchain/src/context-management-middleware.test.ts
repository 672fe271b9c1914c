import { startSimulator, type Simulator } from '@ctxhost/simulator';
import { ChatAnthropic } from '@langchain/anthropic';
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { createDefaultHost, type Host, type HostLogger, type ToastEvent } from 'ctxhost';
import { createAgent } from 'langchain';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { z } from 'zod';
import { contextManagementMiddleware } from './index.js';

const CLAUDE = 'claude-sonnet-4-6';
const GPT = 'gpt-4o';
const SYSTEM = 'You are a careful engineer.';

const readFile = tool(async ({ path }: { path: string }) => `contents of ${path}\n`.repeat(20), {
  name: 'read_file',
  description: 'Reads a file',
  schema: z.object({ path: z.string() }),
});

/** A build investigation: ten file reads whose outputs grow, then the question. */
function conversation(): BaseMessage[] {
  const messages: BaseMessage[] = [new HumanMessage('Investigate the failing build.')];
  for (let index = 0; index < 10; index++) {
    const id = `toolu_${index}`;
    messages.push(
      new AIMessage({
        content: `Reading part ${index}. ${'reasoning about the build '.repeat(30)}`,
        tool_calls: [{ id, name: 'read_file', args: { path: `src/file${index}.ts` }, type: 'tool_call' }],
      }),
      new ToolMessage({
        content: `source line ${index}\n`.repeat(60 + index * 40),
        tool_call_id: id,
        name: 'read_file',
      }),
    );
  }
  messages.push(new AIMessage('Read everything.'), new HumanMessage('What failed?'));
  return messages;
}

type Provider = 'anthropic' | 'openai';
const opened: { sim: Simulator; host: Host }[] = [];
afterEach(async () => {
  for (const { sim, host } of opened.splice(0)) {
    await host.dispose();
    await sim.close();
  }
});

function chatModel(provider: Provider, sim: Simulator) {
  return provider === 'anthropic'
    ? new ChatAnthropic({ model: CLAUDE, apiKey: 'test', anthropicApiUrl: sim.url, maxRetries: 0, maxTokens: 100 })
    : new ChatOpenAI({
        model: GPT,
        apiKey: 'test',
        configuration: { baseURL: `${sim.url}/v1` },
        maxRetries: 0,
        maxTokens: 100,
      });
}

async function rig(
  provider: Provider,
  options: { contextLimit?: number; contextWindow: number; overflowStyle?: 'stop_reason' },
) {
  const limit = options.contextLimit ?? 1_000_000;
  const sim = await startSimulator({
    contextLimit: limit,
    ...(options.overflowStyle === undefined ? {} : { overflowStyle: options.overflowStyle }),
    models: { [GPT]: { contextLimit: limit, overflowStyle: 'openai' } },
  });
  const warnings: string[] = [];
  const logger: HostLogger = {
    debug() {},
    info() {},
    warn: (message) => void warnings.push(message),
    error: (message) => void warnings.push(message),
  };
  const host = await createDefaultHost({
    config: {
      store: { kind: 'memory' },
      hooks: { 'anthropic-auto-compact': { initial_delay_ms: 0, max_delay_ms: 0 } },
    },
    logger,
  });
  opened.push({ sim, host });
  const toasts: ToastEvent[] = [];
  host.hooks.toast.tapPromise('test', async (toast) => void toasts.push(toast));
  const middleware = contextManagementMiddleware({ host, contextWindow: options.contextWindow });
  const agent = createAgent({
    model: chatModel(provider, sim),
    tools: [readFile],
    systemPrompt: SYSTEM,
    middleware: [middleware],
  });
  const plain = createAgent({ model: chatModel(provider, sim), tools: [readFile], systemPrompt: SYSTEM });
  return { sim, host, toasts, warnings, agent, plain };
}

const modelCalls = (sim: Simulator) =>
  sim.requests.filter((request) => request.path === '/v1/messages' || request.path === '/v1/chat/completions');

/** The conversation's prompt size as the simulator counts it, sent by an agent without ctxhost. */
async function promptTokens(provider: Provider): Promise<number> {
  const { sim, plain } = await rig(provider, { contextWindow: 1_000_000 });
  await plain.invoke({ messages: conversation() });
  const usage = modelCalls(sim)[0]!.usage!;
  return usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
}

const lastText = (messages: BaseMessage[]) => messages.at(-1)!.text;

describe.each(['anthropic', 'openai'] as const)('contextManagementMiddleware in createAgent (%s)', (provider) => {
  it('recovers a conversation 50% over the window: invoke() returns the answer, not the error', async () => {
    const real = await promptTokens(provider);
    const { sim, agent, toasts } = await rig(provider, {
      contextLimit: Math.floor(real / 1.5),
      contextWindow: 200_000,
    });
    const input = conversation();
    const result = await agent.invoke({ messages: input });
    expect(lastText(result.messages).length).toBeGreaterThan(0);
    expect(modelCalls(sim).map((call) => call.status)).toEqual([400, 200]);
    expect(toasts.some((toast) => toast.title === 'Session recovered')).toBe(true);
    // The agent's state keeps every original: compaction changed the request only.
    expect(result.messages.slice(0, input.length).map((message) => message.text)).toEqual(
      input.map((message) => message.text),
    );
  });

  it('compacts before the call when the window is known: one call, no 400', async () => {
    const real = await promptTokens(provider);
    const limit = Math.floor(real / 1.5);
    const { sim, agent } = await rig(provider, { contextLimit: limit, contextWindow: limit });
    const result = await agent.invoke({ messages: conversation() });
    expect(lastText(result.messages).length).toBeGreaterThan(0);
    expect(modelCalls(sim).map((call) => call.status)).toEqual([200]);
    const sent = JSON.stringify(modelCalls(sim)[0]!.body);
    expect(sent.includes('"cache_control"')).toBe(provider === 'anthropic');
  });

  it('passes an error that is not an overflow through unchanged', async () => {
    const { sim, agent, plain } = await rig(provider, { contextWindow: 200_000 });
    sim.faults.next(2, { kind: 'server_error' });
    const direct = (await plain
      .invoke({ messages: [new HumanMessage('hello')] })
      .catch((error: unknown) => error)) as Error;
    const wrapped = (await agent
      .invoke({ messages: [new HumanMessage('hello')] })
      .catch((error: unknown) => error)) as Error;
    // LangChain wraps what a middleware throws in its MiddlewareError (same name and message); the cause is the model's own error.
    const withoutRequestId = (message: string) => message.replace(/req_sim_\w+/g, 'req');
    expect(withoutRequestId(wrapped.message)).toBe(withoutRequestId(direct.message));
    expect(wrapped.name).toBe(direct.name);
    expect((wrapped.cause as Error).constructor).toBe(direct.constructor);
    expect(modelCalls(sim)).toHaveLength(2);
  });
});

describe('contextManagementMiddleware with the system message apart from the messages', () => {
  it('sends a changed system message on the same messages, and messages changed in place as they are', async () => {
    const { sim, host } = await rig('openai', { contextWindow: 200_000 });
    const middleware = contextManagementMiddleware({ host, contextWindow: 200_000 });
    const seen: string[] = [];
    host.hooks.beforeRequest.tapPromise('test', async (request) => {
      seen.push(JSON.stringify(request.messages.map((message) => message.parts)));
      return request;
    });
    const handled: { system: string; messages: BaseMessage[] }[] = [];
    const handler = async (request: { systemMessage: SystemMessage; messages: BaseMessage[] }) => {
      handled.push({ system: request.systemMessage.text, messages: request.messages });
      return new AIMessage('ok');
    };
    const model = chatModel('openai', sim);
    const messages = conversation();
    const call = (system: string) =>
      middleware.wrapModelCall!(
        {
          model,
          messages,
          systemMessage: new SystemMessage(system),
          tools: [],
          state: { messages },
          runtime: {},
        } as never,
        handler as never,
      );
    await call(SYSTEM);
    await call('You are a terse reviewer.');
    expect(handled.at(-1)!.system).toBe('You are a terse reviewer.');
    expect(handled.at(-1)!.messages).toBe(messages);
    expect(seen.at(-1)).not.toContain(SYSTEM);
    // The same array again, pushed to and with an earlier message replaced in place.
    messages.push(new HumanMessage('And the tests?'));
    messages[3] = new AIMessage({ content: 'Reading it again.', tool_calls: (messages[3] as AIMessage).tool_calls });
    await call('You are a terse reviewer.');
    expect(handled.at(-1)!.messages).toBe(messages);
    expect(seen.at(-1)).toContain('Reading it again.');
    expect(seen.at(-1)).not.toContain('Reading part 1.');
    expect(seen.at(-1)).toContain('And the tests?');
  });
});

describe('contextManagementMiddleware in a tool loop (ChatAnthropic)', () => {
  it('follows a multi-step run on one view, appending only what each step adds', async () => {
    const { sim, host, agent, warnings } = await rig('anthropic', { contextWindow: 200_000 });
    sim.script(
      { content: [{ type: 'tool_use', id: 'toolu_a', name: 'read_file', input: { path: 'a.ts' } }] },
      { content: [{ type: 'tool_use', id: 'toolu_b', name: 'read_file', input: { path: 'b.ts' } }] },
      'Both files read.',
    );
    const appended: { sessionId: string; role: string }[] = [];
    host.hooks.messageUpdated.tapPromise(
      'test',
      async ({ sessionId, message }) => void appended.push({ sessionId, role: message.role }),
    );
    let last: BaseMessage[] = [];
    for await (const state of await agent.stream(
      { messages: [new HumanMessage('Read a.ts and b.ts.')] },
      { streamMode: 'values' },
    ))
      last = state.messages;
    expect(lastText(last)).toBe('Both files read.');
    expect(modelCalls(sim)).toHaveLength(3);
    // Step 1 opens the view with the request; steps 2 and 3 each append the call and its result, nothing twice.
    expect(appended.map((event) => event.role)).toEqual(['assistant', 'tool', 'assistant', 'tool']);
    expect(new Set(appended.map((event) => event.sessionId)).size).toBe(1);
    expect(warnings).toEqual([]);
  });

  it('recovers an overflow in a streamed run', async () => {
    const real = await promptTokens('anthropic');
    const { sim, agent } = await rig('anthropic', { contextLimit: Math.floor(real / 1.5), contextWindow: 200_000 });
    const chunks: string[] = [];
    for await (const [chunk] of await agent.stream({ messages: conversation() }, { streamMode: 'messages' }))
      chunks.push(chunk.text);
    expect(chunks.join('').length).toBeGreaterThan(0);
    expect(modelCalls(sim).map((call) => call.status)).toEqual([400, 200]);
  });

  it("recovers Anthropic's model_context_window_exceeded stop (a 200 with no content)", async () => {
    const real = await promptTokens('anthropic');
    // The stop names no limit, so the cascade cannot aim at one: 5% over, as a turn's growth would put it.
    const { sim, agent } = await rig('anthropic', {
      contextLimit: Math.floor(real / 1.05),
      contextWindow: 200_000,
      overflowStyle: 'stop_reason',
    });
    const result = await agent.invoke({ messages: conversation() });
    expect(lastText(result.messages).length).toBeGreaterThan(0);
    expect(modelCalls(sim).map((call) => call.stopReason)).toEqual(['model_context_window_exceeded', 'end_turn']);
  });

  it('recovers the stop 50% over too: the prompt it stopped bounds the unnamed limit', async () => {
    const real = await promptTokens('anthropic');
    const { sim, agent } = await rig('anthropic', {
      contextLimit: Math.floor(real / 1.5),
      contextWindow: 200_000,
      overflowStyle: 'stop_reason',
    });
    const result = await agent.invoke({ messages: conversation() });
    expect(lastText(result.messages).length).toBeGreaterThan(0);
    expect(modelCalls(sim).at(-1)?.stopReason).toBe('end_turn');
  });

  it('sends a request with a block it cannot map untouched, with one warning', async () => {
    // The warning also goes to process.emitWarning (for users without a logger): caught here, counted, not printed.
    const processWarnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    onTestFinished(() => processWarnings.mockRestore());
    const { sim, agent, warnings } = await rig('anthropic', { contextWindow: 200_000 });
    const document = { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'release notes' } };
    const messages = [new HumanMessage({ content: [{ type: 'text', text: 'Summarise this.' }, document] })];
    await agent.invoke({ messages });
    await agent.invoke({ messages });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('"document"');
    expect(processWarnings.mock.calls.filter(([text]) => String(text).includes('"document"'))).toHaveLength(1);
    for (const call of modelCalls(sim)) {
      expect(call.status).toBe(200);
      expect(JSON.stringify(call.body)).toContain('release notes');
    }
  });
});
