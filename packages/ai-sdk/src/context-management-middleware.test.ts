import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { contextManagementMiddleware } from './index.js';
import { startSimulator, type Simulator } from '@ctxhost/simulator';
import { generateText, stepCountIs, streamText, tool, wrapLanguageModel, type ModelMessage } from 'ai';
import { z } from 'zod';
import { createDefaultHost, type Host, type HostLogger, type ToastEvent } from 'ctxhost';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';

const MODEL = 'claude-sonnet-4-6';

/** A build investigation: ten file reads whose outputs grow, then the question. */
function conversation(): ModelMessage[] {
  const messages: ModelMessage[] = [{ role: 'user', content: 'Investigate the failing build.' }];
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
  return messages;
}

interface Rig {
  sim: Simulator;
  host: Host;
  toasts: ToastEvent[];
  warnings: string[];
  model: ReturnType<typeof wrapLanguageModel>;
}

const rigs: Rig[] = [];
afterEach(async () => {
  for (const rig of rigs.splice(0)) {
    await rig.host.dispose();
    await rig.sim.close();
  }
});

async function rig(options: {
  contextLimit?: number;
  contextWindow?: number;
  models?: Record<string, { contextWindow: number }>;
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
      hooks: { 'anthropic-auto-compact': { initial_delay_ms: 0, max_delay_ms: 0 } },
      ...(options.models === undefined ? {} : { models: options.models }),
    },
    logger,
  });
  const toasts: ToastEvent[] = [];
  host.hooks.toast.tapPromise('test', async (toast) => void toasts.push(toast));
  const anthropic = createAnthropic({ baseURL: `${sim.url}/v1`, apiKey: 'test' });
  const model = wrapLanguageModel({
    model: anthropic(MODEL),
    middleware: contextManagementMiddleware({
      host,
      ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
    }),
  });
  const created = { sim, host, toasts, warnings, model };
  rigs.push(created);
  return created;
}

async function promptTokens(messages: ModelMessage[]): Promise<number> {
  const probe = await rig({ contextWindow: 1_000_000 });
  await generateText({ model: probe.model, system: 'You are a careful engineer.', messages, maxOutputTokens: 100 });
  return (
    probe.sim.requests[0]!.usage!.input_tokens +
    (probe.sim.requests[0]!.usage!.cache_creation_input_tokens ?? 0) +
    (probe.sim.requests[0]!.usage!.cache_read_input_tokens ?? 0)
  );
}

const messagesCalls = (sim: Simulator) => sim.requests.filter((request) => request.path === '/v1/messages');

describe('contextManagementMiddleware with ai + @ai-sdk/anthropic against the simulator', () => {
  it('recovers a prompt 50% over the window inside generateText: the caller gets the answer, not the error', async () => {
    const real = await promptTokens(conversation());
    const { sim, model, toasts } = await rig({ contextLimit: Math.floor(real / 1.5), contextWindow: 200_000 });
    const result = await generateText({
      model,
      system: 'You are a careful engineer.',
      messages: conversation(),
      maxOutputTokens: 100,
    });
    expect(result.text.length).toBeGreaterThan(0);
    const calls = messagesCalls(sim);
    expect(calls.map((call) => call.status)).toEqual([400, 200]);
    expect(toasts.some((toast) => toast.title === 'Session recovered')).toBe(true);
  });

  it('recovers inside streamText: the stream carries the answer, no error part', async () => {
    const real = await promptTokens(conversation());
    const { sim, model } = await rig({ contextLimit: Math.floor(real / 1.5), contextWindow: 200_000 });
    const errors: unknown[] = [];
    const result = streamText({
      model,
      system: 'You are a careful engineer.',
      messages: conversation(),
      maxOutputTokens: 100,
      onError: ({ error }) => void errors.push(error),
    });
    expect((await result.text).length).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    expect(messagesCalls(sim).map((call) => call.status)).toEqual([400, 200]);
  });

  it('compacts before the API would reject when the window is known: one call, no 400', async () => {
    const real = await promptTokens(conversation());
    const limit = Math.floor(real / 1.5);
    const { sim, model, host } = await rig({ contextLimit: limit, contextWindow: limit });
    const compactions: number[] = [];
    host.hooks.compactionCompleted.tapPromise('test', async ({ report }) => void compactions.push(report.tokensAfter));
    await generateText({
      model,
      system: 'You are a careful engineer.',
      messages: conversation(),
      maxOutputTokens: 100,
    });
    expect(messagesCalls(sim).map((call) => call.status)).toEqual([200]);
    expect(compactions.length).toBeGreaterThan(0);
  });

  it('takes the window from the model registry (here a config models: entry) when none is given', async () => {
    const real = await promptTokens(conversation());
    const limit = Math.floor(real / 1.5);
    const { sim, model } = await rig({ contextLimit: limit, models: { [MODEL]: { contextWindow: limit } } });
    await generateText({
      model,
      system: 'You are a careful engineer.',
      messages: conversation(),
      maxOutputTokens: 100,
    });
    expect(messagesCalls(sim).map((call) => call.status)).toEqual([200]);
  });

  it('puts system_and_3 cache breakpoints on the request as providerOptions.anthropic.cacheControl', async () => {
    const { sim, model } = await rig({ contextWindow: 200_000 });
    await generateText({
      model,
      system: 'You are a careful engineer.',
      messages: conversation(),
      maxOutputTokens: 100,
    });
    const body = messagesCalls(sim)[0]!.body as {
      system: { cache_control?: unknown }[];
      messages: { content: { cache_control?: unknown }[] }[];
    };
    expect(body.system.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
    const marked = body.messages.map((message) =>
      Array.isArray(message.content) && message.content.some((block) => block.cache_control !== undefined) ? 1 : 0,
    );
    expect(marked.reduce((sum: number, one) => sum + one, 0)).toBe(3);
    expect(marked.slice(-3)).toEqual([1, 1, 1]);
  });

  it('passes a provider error that is not an overflow through unchanged', async () => {
    const { sim, model } = await rig({ contextWindow: 200_000 });
    const plain = createAnthropic({ baseURL: `${sim.url}/v1`, apiKey: 'test' })(MODEL);
    sim.faults.next(2, { kind: 'overloaded' });
    const direct = await generateText({ model: plain, prompt: 'hello', maxRetries: 0 }).catch(
      (error: unknown) => error,
    );
    const wrapped = await generateText({ model, prompt: 'hello', maxRetries: 0 }).catch((error: unknown) => error);
    expect(wrapped).toBeInstanceOf(Error);
    expect((wrapped as Error).constructor).toBe((direct as Error).constructor);
    expect((wrapped as Error).message).toBe((direct as Error).message);
    expect((wrapped as { statusCode?: number }).statusCode).toBe(529);
    expect(messagesCalls(sim)).toHaveLength(2);
  });

  it('follows a multi-step tool loop on one view, appending only what each step adds', async () => {
    const { sim, model, host } = await rig({ contextWindow: 200_000 });
    sim.script(
      { content: [{ type: 'tool_use', id: 'toolu_a', name: 'read_file', input: { path: 'a.ts' } }] },
      { content: [{ type: 'tool_use', id: 'toolu_b', name: 'read_file', input: { path: 'b.ts' } }] },
      'Both files read.',
    );
    const readFile = tool({
      description: 'Reads a file',
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => `contents of ${path}\n`.repeat(20),
    });
    const sessions: string[] = [];
    const appended: { sessionId: string; role: string }[] = [];
    host.hooks.messageUpdated.tapPromise(
      'test',
      async ({ sessionId, message }) => void appended.push({ sessionId, role: message.role }),
    );
    const result = await generateText({
      model,
      system: 'You are a careful engineer.',
      prompt: 'Read a.ts and b.ts.',
      tools: { read_file: readFile },
      stopWhen: stepCountIs(5),
      prepareStep: async ({ stepNumber }) => {
        sessions.push(String(stepNumber));
        return {};
      },
      maxOutputTokens: 100,
    });
    expect(result.text).toBe('Both files read.');
    expect(sessions).toEqual(['0', '1', '2']);
    expect(messagesCalls(sim)).toHaveLength(3);
    // Step 1 opens the view with the prompt; steps 2 and 3 each append the assistant's call and its result, nothing twice.
    expect(appended.map((event) => event.role)).toEqual(['assistant', 'tool', 'assistant', 'tool']);
    expect(new Set(appended.map((event) => event.sessionId)).size).toBe(1);
    const lastBody = messagesCalls(sim)[2]!.body as { messages: unknown[] };
    // user, (assistant tool_use, user tool_result) x 2
    expect(lastBody.messages).toHaveLength(5);
  });

  it('still accepts the deprecated providerOptions.ctxhost.sessionId, saying once that it is no longer used', async () => {
    const processWarnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    onTestFinished(() => processWarnings.mockRestore());
    const { model } = await rig({ contextWindow: 200_000 });
    for (let call = 0; call < 2; call++) {
      const result = await generateText({
        model,
        messages: [{ role: 'user', content: 'Hello' }],
        maxOutputTokens: 50,
        providerOptions: { ctxhost: { sessionId: 'generate' } },
      });
      expect(result.text.length).toBeGreaterThan(0);
    }
    expect(processWarnings.mock.calls.filter(([text]) => String(text).includes('sessionId'))).toEqual([
      [
        'providerOptions.ctxhost.sessionId is no longer used: a conversation is identified by its messages; remove it',
        { type: 'DeprecationWarning', code: 'CTXHOST_DEPRECATED' },
      ],
    ]);
  });

  it('sends a prompt it cannot map untouched, with one warning however often it comes', async () => {
    // The warning also goes to process.emitWarning (for users without a logger): caught here, counted, not printed.
    const processWarnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    onTestFinished(() => processWarnings.mockRestore());
    const { sim, model, warnings } = await rig({ contextWindow: 200_000 });
    const plain = createAnthropic({ baseURL: `${sim.url}/v1`, apiKey: 'test' })(MODEL);
    const messages: ModelMessage[] = [
      { role: 'user', content: 'Hello' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Hi.' },
          { type: 'reasoning-file', data: 'aGk=', mediaType: 'image/png' },
        ],
      },
      { role: 'user', content: 'Again' },
    ];
    await generateText({ model: plain, system: 'Be terse.', messages, maxOutputTokens: 50 });
    await generateText({ model, system: 'Be terse.', messages, maxOutputTokens: 50 });
    await generateText({ model, system: 'Be terse.', messages, maxOutputTokens: 50 });
    const [direct, first, second] = messagesCalls(sim).map((call) => call.body);
    expect(first).toEqual(direct);
    expect(second).toEqual(direct);
    expect(warnings.filter((warning) => warning.includes('"reasoning-file"'))).toHaveLength(1);
    expect(processWarnings.mock.calls.filter(([text]) => String(text).includes('"reasoning-file"'))).toHaveLength(1);
  });
});

// Many users and workers (Alice/Bob, two instances on one store, concurrent overflows): test/integration-contract.test.ts.

describe('an overflow reported in a 200 (stop reason model_context_window_exceeded)', () => {
  it('is recovered inside streamText as generateText recovers it', async () => {
    const real = await promptTokens(conversation());
    const sim = await startSimulator({ contextLimit: Math.floor(real / 1.05), overflowStyle: 'stop_reason' });
    const host = await createDefaultHost({
      config: {
        store: { kind: 'memory' },
        hooks: { 'anthropic-auto-compact': { initial_delay_ms: 0, max_delay_ms: 0 } },
      },
    });
    rigs.push({ sim, host, toasts: [], warnings: [], model: undefined as never });
    const model = wrapLanguageModel({
      model: createAnthropic({ baseURL: `${sim.url}/v1`, apiKey: 'test' })(MODEL),
      middleware: contextManagementMiddleware({ host, contextWindow: 200_000 }),
    });
    const streamed = streamText({
      model,
      system: 'You are a careful engineer.',
      messages: conversation(),
      maxOutputTokens: 100,
    });
    expect((await streamed.text).length).toBeGreaterThan(0);
    expect(await streamed.finishReason).not.toBe('length');
    expect(messagesCalls(sim).map((call) => call.stopReason)).toEqual(['model_context_window_exceeded', 'end_turn']);
  });

  // The API names no maximum in this form, so the cascade plans with the window it was told (200k here): a small overflow.
  it('is recovered like an error', async () => {
    const real = await promptTokens(conversation());
    const sim = await startSimulator({ contextLimit: Math.floor(real / 1.05), overflowStyle: 'stop_reason' });
    const host = await createDefaultHost({
      config: {
        store: { kind: 'memory' },
        hooks: { 'anthropic-auto-compact': { initial_delay_ms: 0, max_delay_ms: 0 } },
      },
    });
    rigs.push({ sim, host, toasts: [], warnings: [], model: undefined as never });
    const model = wrapLanguageModel({
      model: createAnthropic({ baseURL: `${sim.url}/v1`, apiKey: 'test' })(MODEL),
      middleware: contextManagementMiddleware({ host, contextWindow: 200_000 }),
    });
    const result = await generateText({
      model,
      system: 'You are a careful engineer.',
      messages: conversation(),
      maxOutputTokens: 100,
    });
    expect(result.text.length).toBeGreaterThan(0);
    expect(messagesCalls(sim).map((call) => call.stopReason)).toEqual(['model_context_window_exceeded', 'end_turn']);
  });
});

describe('with @ai-sdk/openai-compatible against the simulator’s Chat Completions endpoint', () => {
  for (const style of ['openai', 'vllm', 'openrouter'] as const) {
    it(`recovers a ${style} overflow inside generateText and streamText`, async () => {
      const probe = await startSimulator();
      const openai = (sim: Simulator) =>
        createOpenAICompatible({ name: 'sim', baseURL: `${sim.url}/v1`, apiKey: 'test', includeUsage: true });
      await generateText({
        model: openai(probe)('gpt-4o'),
        system: 'You are a careful engineer.',
        messages: conversation(),
        maxOutputTokens: 100,
      });
      const real = probe.requests[0]!.usage!.input_tokens + (probe.requests[0]!.usage!.cache_read_input_tokens ?? 0);
      await probe.close();
      const sim = await startSimulator({
        models: { 'gpt-4o': { contextLimit: Math.floor(real / 1.5), overflowStyle: style } },
      });
      const host = await createDefaultHost({
        config: {
          store: { kind: 'memory' },
          hooks: { 'anthropic-auto-compact': { initial_delay_ms: 0, max_delay_ms: 0 } },
        },
      });
      rigs.push({ sim, host, toasts: [], warnings: [], model: undefined as never });
      const model = wrapLanguageModel({
        model: openai(sim)('gpt-4o'),
        middleware: contextManagementMiddleware({ host, contextWindow: 1_000_000 }),
      });
      const generated = await generateText({
        model,
        system: 'You are a careful engineer.',
        messages: conversation(),
        maxOutputTokens: 100,
      });
      expect(generated.text.length).toBeGreaterThan(0);
      // The same prompt again: the stored compaction of exactly these messages is used at once, the same projection sent.
      const again = await generateText({
        model,
        system: 'You are a careful engineer.',
        messages: conversation(),
        maxOutputTokens: 100,
      });
      expect(again.text.length).toBeGreaterThan(0);
      // Another last question: the compaction covers a message this prompt lacks, so it is not used, and the stream recovers itself.
      const streamed = streamText({
        model,
        system: 'You are a careful engineer.',
        messages: [...conversation().slice(0, -1), { role: 'user', content: 'What failed, in one line?' }],
        maxOutputTokens: 100,
      });
      expect((await streamed.text).length).toBeGreaterThan(0);
      const calls = sim.requests.filter((request) => request.path === '/v1/chat/completions');
      expect(calls.map((call) => call.status)).toEqual([400, 200, 200, 400, 200]);
      expect(JSON.stringify(calls[2]!.body)).toBe(JSON.stringify(calls[1]!.body));
      expect(JSON.stringify(calls[1]!.body)).not.toContain('cache_control');
    });
  }
});
