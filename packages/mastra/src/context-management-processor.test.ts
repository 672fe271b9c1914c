import { createAnthropic } from '@ai-sdk/anthropic';
import { Agent } from '@mastra/core/agent';
import type { MastraModelConfig } from '@mastra/core/llm';
import { noopLogger } from '@mastra/core/logger';
import { createTool } from '@mastra/core/tools';
import { startSimulator, type Simulator } from '@ctxhost/simulator';
import {
  createDefaultHost,
  learnedWindowBound,
  setLearnedWindowBound,
  type Host,
  type HostLogger,
  type ToastEvent,
} from 'ctxhost';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { z } from 'zod';
import { createContextManagementProcessor, MASTRA_ERROR_CODES, type ContextManagementProcessor } from './index.js';

const MODEL = 'claude-sonnet-4-6';
const SYSTEM = 'You are a careful engineer.';

type Messages = Parameters<Agent['generate']>[0];

/** A build investigation: ten file reads whose outputs grow, then the question. */
function conversation(): Messages {
  const messages: unknown[] = [{ role: 'user', content: 'Investigate the failing build.' }];
  for (let index = 0; index < 10; index++) {
    const toolCallId = `toolu_${index}`;
    messages.push({
      role: 'assistant',
      content: [
        { type: 'text', text: `Reading part ${index}. ${'reasoning about the build '.repeat(30)}` },
        { type: 'tool-call', toolCallId, toolName: 'read_file', input: { path: `src/file${index}.ts` } },
      ],
    });
    messages.push({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId,
          toolName: 'read_file',
          output: { type: 'text', value: `source line ${index}\n`.repeat(60 + index * 40) },
        },
      ],
    });
  }
  messages.push({ role: 'assistant', content: 'Read everything.' }, { role: 'user', content: 'What failed?' });
  return messages as Messages;
}

/** `@ai-sdk/anthropic` against the simulator. (Its `LanguageModelV4` type is a newer patch than the one Mastra's types bundle; the objects are the same at run time.) */
function anthropicModel(sim: Simulator): MastraModelConfig {
  return createAnthropic({ baseURL: `${sim.url}/v1`, apiKey: 'test' })(MODEL) as unknown as MastraModelConfig;
}

function agentOf(
  sim: Simulator,
  processor?: ContextManagementProcessor,
  extra: Partial<ConstructorParameters<typeof Agent>[0]> = {},
) {
  const agent = new Agent({
    id: 'engineer',
    name: 'engineer',
    instructions: SYSTEM,
    model: anthropicModel(sim),
    ...(processor === undefined
      ? {}
      : { inputProcessors: [processor], errorProcessors: [processor], maxProcessorRetries: 3 }),
    ...extra,
  });
  agent.__setLogger(noopLogger);
  return agent;
}

interface Rig {
  sim: Simulator;
  host: Host;
  toasts: ToastEvent[];
  warnings: string[];
  agent: ReturnType<typeof agentOf>;
}

const rigs: Rig[] = [];
afterEach(async () => {
  for (const rig of rigs.splice(0)) {
    await rig.host.dispose();
    await rig.sim.close();
  }
});

async function rig(options: {
  plan?: boolean;
  contextLimit?: number;
  contextWindow?: number;
  tools?: ConstructorParameters<typeof Agent>[0]['tools'];
}): Promise<Rig> {
  const sim = await startSimulator(options.contextLimit === undefined ? {} : { contextLimit: options.contextLimit });
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
      // oh-my-opencode's walk with nothing compacting before a call: only the cascade's steps, one per retry.
      ...(options.plan === false
        ? { compression: { enabled: false }, disabled_hooks: ['session-hygiene', 'preemptive-compaction'] }
        : {}),
      hooks: {
        'anthropic-auto-compact': {
          initial_delay_ms: 0,
          max_delay_ms: 0,
          ...(options.plan === undefined ? {} : { plan: options.plan }),
        },
      },
    },
    logger,
  });
  const toasts: ToastEvent[] = [];
  host.hooks.toast.tapPromise('test', async (toast) => void toasts.push(toast));
  const processor = createContextManagementProcessor({
    host,
    ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
  });
  const agent = agentOf(sim, processor, options.tools === undefined ? {} : { tools: options.tools });
  const created = { sim, host, toasts, warnings, agent };
  rigs.push(created);
  return created;
}

/** The conversation's prompt size as the simulator counts it, sent by a plain agent. */
async function promptTokens(): Promise<number> {
  const sim = await startSimulator();
  try {
    await agentOf(sim).generate(conversation(), { modelSettings: { maxOutputTokens: 100 } });
    const usage = sim.requests[0]!.usage!;
    return usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
  } finally {
    await sim.close();
  }
}

const statuses = (sim: Simulator) =>
  sim.requests.filter((request) => request.path === '/v1/messages').map((request) => request.status);

describe('createContextManagementProcessor in a Mastra Agent (@ai-sdk/anthropic against the simulator)', () => {
  it('recovers a prompt 50% over the window inside generate(): the caller gets the answer, not the error', async () => {
    const real = await promptTokens();
    const { sim, agent, toasts } = await rig({ contextLimit: Math.floor(real / 1.5), contextWindow: 200_000 });
    const result = await agent.generate(conversation(), { modelSettings: { maxOutputTokens: 100 } });
    expect(result.error).toBeUndefined();
    expect(result.text.length).toBeGreaterThan(0);
    expect(statuses(sim)).toEqual([400, 200]);
    expect(toasts.map((toast) => toast.title)).toContain('Session recovered');
  });

  it('gives a retry that overflows again the cascade\'s next step, and says "recovered" only once the model answered', async () => {
    // oh-my-opencode's walk (one step per retry, the largest output each time) cannot make a prompt 50% over fit
    // with its first truncation: each retry that overflows again gets the next one.
    const real = await promptTokens();
    const { sim, agent, toasts } = await rig({
      plan: false,
      contextLimit: Math.floor(real / 1.5),
      contextWindow: 200_000,
    });
    const result = await agent.generate(conversation(), { modelSettings: { maxOutputTokens: 100 } });
    expect(result.text.length).toBeGreaterThan(0);
    const seen = statuses(sim);
    expect(seen.filter((status) => status === 400).length).toBeGreaterThan(1);
    expect(seen.at(-1)).toBe(200);
    expect(toasts.filter((toast) => toast.title === 'Session recovered')).toHaveLength(1);
  });

  it('recovers inside stream(): the stream carries the answer, no error chunk', async () => {
    const real = await promptTokens();
    const { sim, agent } = await rig({ contextLimit: Math.floor(real / 1.5), contextWindow: 200_000 });
    const stream = await agent.stream(conversation(), { modelSettings: { maxOutputTokens: 100 } });
    const types: string[] = [];
    for await (const chunk of stream.fullStream) types.push(chunk.type);
    expect((await stream.text).length).toBeGreaterThan(0);
    expect(types).not.toContain('error');
    expect(statuses(sim)).toEqual([400, 200]);
  });

  it('compacts before the API would reject when the window is known: one call, no 400', async () => {
    const real = await promptTokens();
    const limit = Math.floor(real / 1.5);
    const { sim, agent, host } = await rig({ contextLimit: limit, contextWindow: limit });
    const compactions: number[] = [];
    host.hooks.compactionCompleted.tapPromise('test', async ({ report }) => void compactions.push(report.tokensAfter));
    const result = await agent.generate(conversation(), { modelSettings: { maxOutputTokens: 100 } });
    expect(result.text.length).toBeGreaterThan(0);
    expect(statuses(sim)).toEqual([200]);
    expect(compactions.length).toBeGreaterThan(0);
    // Mastra's own messages are untouched: the compaction changed only what this call sent.
    expect(JSON.stringify(result.response.messages ?? [])).not.toContain('CONTEXT COMPACTION');
  });

  it('puts system_and_3 cache breakpoints on the call as providerOptions.anthropic.cacheControl', async () => {
    const { sim, agent } = await rig({ contextWindow: 200_000 });
    await agent.generate(conversation(), { modelSettings: { maxOutputTokens: 100 } });
    const body = sim.requests[0]!.body as {
      system: { cache_control?: unknown }[];
      messages: { content: { cache_control?: unknown }[] }[];
    };
    expect(body.system.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
    const marked = body.messages.map((message) =>
      message.content.some((block) => block.cache_control !== undefined) ? 1 : 0,
    );
    expect(marked.reduce((sum: number, one) => sum + one, 0)).toBe(3);
    expect(marked.slice(-3)).toEqual([1, 1, 1]);
  });

  it("recovers through Mastra's model router ({ id, url }: specification v2, Chat Completions) too", async () => {
    const probe = await startSimulator();
    const routed = (sim: Simulator): MastraModelConfig => ({
      id: 'openai/gpt-4o',
      url: `${sim.url}/v1`,
      apiKey: 'test',
    });
    const plain = new Agent({ id: 'plain', name: 'plain', instructions: SYSTEM, model: routed(probe) });
    plain.__setLogger(noopLogger);
    await plain.generate(conversation(), { modelSettings: { maxOutputTokens: 100 } });
    const real = probe.requests[0]!.usage!.input_tokens + (probe.requests[0]!.usage!.cache_read_input_tokens ?? 0);
    await probe.close();
    const { sim, host } = await rig({ contextLimit: Math.floor(real / 1.5) });
    const processor = createContextManagementProcessor({ host, contextWindow: 1_000_000 });
    const agent = new Agent({
      id: 'routed',
      name: 'routed',
      instructions: SYSTEM,
      model: routed(sim),
      inputProcessors: [processor],
      errorProcessors: [processor],
      maxProcessorRetries: 3,
    });
    agent.__setLogger(noopLogger);
    const result = await agent.generate(conversation(), { modelSettings: { maxOutputTokens: 100 } });
    expect(result.text.length).toBeGreaterThan(0);
    const calls = sim.requests.filter((request) => request.path === '/v1/chat/completions');
    expect(calls.map((call) => call.status)).toEqual([400, 200]);
  });

  it('raises the window an overflow that named no limit taught when a larger prompt is answered, as the other integrations do', async () => {
    const { sim, agent, host } = await rig({ contextWindow: 200_000 });
    // What an earlier incident of this model left in the process: answered at 2,000, refused at 20,000.
    setLearnedWindowBound(host, MODEL, { fits: 2_000, rejected: 20_000 });
    // A pasted log between the learned fit and the limit: nothing to compact, sent as it is, and answered.
    const log = 'the build log says error TS2322 in src/app.ts\n'.repeat(220);
    const result = await agent.generate(`What failed?\n${log}`, { modelSettings: { maxOutputTokens: 100 } });
    expect(result.text.length).toBeGreaterThan(0);
    expect(statuses(sim)).toEqual([200]);
    // The model's window for later requests: without the raise it stayed at 2,000, and a prompt this size was compacted to it.
    const raised = learnedWindowBound(host, MODEL)!;
    expect(raised.fits).toBeGreaterThan(2_200);
    expect(raised.rejected).toBe(20_000);
  });

  it('passes a provider error that is not an overflow through unchanged', async () => {
    const { sim, agent } = await rig({ contextWindow: 200_000 });
    sim.faults.next(2, { kind: 'overloaded' });
    const settings = { modelSettings: { maxOutputTokens: 50, maxRetries: 0 } };
    const direct = await agentOf(sim)
      .generate('hello', settings)
      .catch((error: unknown) => error);
    const wrapped = await agent.generate('hello', settings).catch((error: unknown) => error);
    expect(wrapped).toBeInstanceOf(Error);
    expect((wrapped as Error).constructor).toBe((direct as Error).constructor);
    expect((wrapped as Error).message).toBe((direct as Error).message);
    expect(statuses(sim)).toEqual([529, 529]);
  });

  it('follows a multi-step tool loop on one view, each message once, its thresholds measured on the prompt alone', async () => {
    const readFile = createTool({
      id: 'read_file',
      description: 'Reads a file',
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => `contents of ${path}\n`.repeat(20),
    });
    const { sim, agent, host } = await rig({ contextWindow: 200_000, tools: { read_file: readFile } });
    sim.script(
      { content: [{ type: 'tool_use', id: 'toolu_a', name: 'read_file', input: { path: 'a.ts' } }] },
      { content: [{ type: 'tool_use', id: 'toolu_b', name: 'read_file', input: { path: 'b.ts' } }] },
      'Both files read.',
    );
    const sessions = new Set<string>();
    host.hooks.messageUpdated.tapPromise('test', async ({ sessionId }) => void sessions.add(sessionId));
    const result = await agent.generate('Read a.ts and b.ts.', {
      maxSteps: 5,
      modelSettings: { maxOutputTokens: 100 },
    });
    expect(result.text).toBe('Both files read.');
    expect(statuses(sim)).toEqual([200, 200, 200]);
    expect(sessions.size).toBe(1);
    // The view holds what the steps sent (the final answer comes with the next prompt), each message once.
    const view = await host.session([...sessions][0]!);
    expect(view.history().map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
    ]);
    // No worker-local usage: another worker that sees the same prompt decides alike whether to compact it.
    expect(view.lastUsage()).toBeUndefined();
  });

  it('sends a prompt it cannot map untouched, with one warning however often it comes', async () => {
    // The warning also goes to process.emitWarning (for users without a logger): caught here, counted, not printed.
    const processWarnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    onTestFinished(() => processWarnings.mockRestore());
    // An earlier processor puts a part ctxhost's model has no place for into the prompt (here a reasoning file).
    const addsReasoningFile = {
      id: 'adds-reasoning-file',
      processLLMRequest: ({ prompt }: { prompt: unknown[] }) => ({
        prompt: prompt.map((message) =>
          (message as { role: string }).role === 'assistant'
            ? {
                ...(message as object),
                content: [
                  ...(message as { content: unknown[] }).content,
                  { type: 'reasoning-file', data: { type: 'data', data: 'aGk=' }, mediaType: 'image/png' },
                ],
              }
            : message,
        ),
      }),
    };
    const { sim, host, warnings } = await rig({ contextWindow: 200_000 });
    const processor = createContextManagementProcessor({ host });
    const messages = [
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Hi.' },
      { role: 'user', content: 'Again' },
    ] as Messages;
    const plain = agentOf(sim, undefined, { inputProcessors: [addsReasoningFile as never] });
    const managed = agentOf(sim, undefined, {
      inputProcessors: [addsReasoningFile as never, processor],
      errorProcessors: [processor],
      maxProcessorRetries: 3,
    });
    await plain.generate(messages, { modelSettings: { maxOutputTokens: 50 } });
    await managed.generate(messages, { modelSettings: { maxOutputTokens: 50 } });
    await managed.generate(messages, { modelSettings: { maxOutputTokens: 50 } });
    const [direct, first, second] = sim.requests.map((request) => request.body);
    expect(first).toEqual(direct);
    expect(second).toEqual(direct);
    expect(warnings.filter((warning) => warning.includes('"reasoning-file"'))).toHaveLength(1);
    expect(processWarnings.mock.calls.filter(([text]) => String(text).includes('"reasoning-file"'))).toHaveLength(1);
  });

  it('rejects options it cannot use, naming the option', () => {
    expect(() => createContextManagementProcessor({ contextWindow: 0 })).toThrow(
      /contextWindow: expected a whole number/,
    );
    expect(() => createContextManagementProcessor({ sessionId: '' })).toThrow(
      expect.objectContaining({ code: MASTRA_ERROR_CODES.optionsInvalid }),
    );
  });
});
