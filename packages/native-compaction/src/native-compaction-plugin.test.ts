import {
  createHost,
  type ContextEngine,
  type EngineState,
  type HostLogger,
  type Message,
  type ModelRequest,
} from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { createNativeCompactionPlugin, withAnthropicContextManagement } from './native-compaction-plugin.js';
import { compactionUsages, readNativeReport, isCompactionPart } from './native-report.js';
import { COMPACTION_BETA, CONTEXT_MANAGEMENT_BETA } from './anthropic-context-management.js';
import { serverFirstThreshold, withServerFirst } from './server-first-engine.js';
import { nativeRequestFieldsOf } from './native-request-fields.js';

const user: Message = { id: 'u1', role: 'user', parts: [{ id: 'u1:0', type: 'text', text: 'hi' }] };
const request = (model: string, providerOptions?: ModelRequest['providerOptions']): ModelRequest => ({
  sessionId: 's',
  model,
  messages: [user],
  maxTokens: 100,
  ...(providerOptions === undefined ? {} : { providerOptions }),
});

const inner: ContextEngine = {
  name: 'inner',
  shouldCompress: (state: EngineState) => state.promptTokens > 0.5 * (state.contextWindow ?? Infinity),
  compress: async (messages) => ({ messages: [...messages], report: { tokensBefore: 0, tokensAfter: 0 } as never }),
};

function recordingLogger(lines: string[]): HostLogger {
  return {
    debug: () => {},
    info: (line) => lines.push(`info ${line}`),
    warn: (line) => lines.push(`warn ${line}`),
    error: (line) => lines.push(`error ${line}`),
  };
}

describe('the native-compaction plugin', () => {
  it('adds the edits and betas to Claude requests, keeps other betas, and leaves other models alone', async () => {
    const lines: string[] = [];
    const host = createHost({
      logger: recordingLogger(lines),
      plugins: [
        createNativeCompactionPlugin({
          config: {
            anthropic: {
              clear_tool_uses: { enabled: true, trigger_tokens: 30_000 },
              compaction: { enabled: true, trigger_tokens: 50_000 },
            },
          },
        }),
      ],
    });
    const sent = await host.hooks.beforeRequest.promise(
      request('claude-sonnet-4-5', { betas: ['files-api-2025-04-14'] }),
      { sessionId: 's', contextWindow: 200_000 },
    );
    expect(sent.providerOptions).toEqual({
      betas: ['files-api-2025-04-14', CONTEXT_MANAGEMENT_BETA, COMPACTION_BETA],
      context_management: {
        edits: [
          {
            type: 'clear_tool_uses_20250919',
            trigger: { type: 'input_tokens', value: 30_000 },
            keep: { type: 'tool_uses', value: 3 },
          },
          { type: 'compact_20260112', trigger: { type: 'input_tokens', value: 50_000 } },
        ],
      },
    });
    const other = request('gpt-4o');
    expect(await host.hooks.beforeRequest.promise(other, { sessionId: 's', contextWindow: undefined })).toEqual(other);
    const gateway = request('anthropic/claude-sonnet-4.5');
    expect(await host.hooks.beforeRequest.promise(gateway, { sessionId: 's', contextWindow: undefined })).toEqual(
      gateway,
    );
    expect(lines).toContain(
      'info native compaction on (claude-sonnet-4-5: clear_tool_uses over 30000 tokens keeping 3; compaction over 50000 tokens); client compaction from 100000 tokens',
    );
    expect(lines).toContain(
      'info native compaction off (nothing configured for openai); the client engine keeps the context',
    );
    expect(lines.filter((line) => line.startsWith('warn'))).toEqual([]);
    await host.dispose();
  });

  it('warns once when the client would compact before the server acts, and not with a server-first engine', async () => {
    const config = { anthropic: { compaction: { enabled: true, trigger_tokens: 50_000 } } };
    const lines: string[] = [];
    const host = createHost({ logger: recordingLogger(lines), plugins: [createNativeCompactionPlugin({ config })] });
    await host.hooks.beforeRequest.promise(request('claude-sonnet-4-5'), { sessionId: 's', contextWindow: 64_000 });
    await host.hooks.beforeRequest.promise(request('claude-sonnet-4-5'), { sessionId: 's', contextWindow: 64_000 });
    expect(lines.filter((line) => line.startsWith('warn'))).toEqual([
      "warn native compaction: client compaction at 32000 tokens comes before the server's trigger at 50000, so the server will not get to act; wrap the engine with withServerFirst or lower the trigger",
    ]);
    await host.dispose();
    const quiet: string[] = [];
    const serverFirst = createHost({
      logger: recordingLogger(quiet),
      engine: withServerFirst(inner, { fallbackThreshold: 0.9 }),
      plugins: [createNativeCompactionPlugin({ config })],
    });
    await serverFirst.hooks.beforeRequest.promise(request('claude-sonnet-4-5'), {
      sessionId: 's',
      contextWindow: 64_000,
    });
    expect(quiet).toEqual([
      'info native compaction on (claude-sonnet-4-5: compaction over 50000 tokens); client compaction from 57600 tokens (fallback)',
    ]);
    await serverFirst.dispose();
  });

  it('tells, before any prompt, the fields its request hook adds for a model (nativeRequestFieldsOf)', async () => {
    const host = createHost({
      plugins: [
        createNativeCompactionPlugin({
          config: {
            anthropic: { clear_tool_uses: { enabled: true, trigger_tokens: 30_000 } },
            openai: { inline: { enabled: true, compact_threshold: 90_000 } },
          },
        }),
      ],
    });
    for (const model of ['claude-sonnet-4-6', 'gpt-5.5']) {
      const sent = await host.hooks.beforeRequest.promise(request(model), { sessionId: 's', contextWindow: 200_000 });
      expect(nativeRequestFieldsOf(host, model)).toEqual({
        vendor: model.startsWith('claude') ? 'anthropic' : 'openai',
        providerOptions: sent.providerOptions,
      });
    }
    expect(nativeRequestFieldsOf(host, 'anthropic/claude-sonnet-4-6')).toMatchObject({
      vendor: undefined,
      off: expect.stringContaining("a gateway's model name"),
    });
    expect(nativeRequestFieldsOf(createHost({ plugins: [createNativeCompactionPlugin()] }), 'gpt-5.5')).toBeUndefined();
  });

  it('is a no-op with everything off (the default)', async () => {
    const host = createHost({ plugins: [createNativeCompactionPlugin()] });
    const plain = request('claude-sonnet-4-5');
    expect(await host.hooks.beforeRequest.promise(plain, { sessionId: 's', contextWindow: undefined })).toEqual(plain);
    await host.dispose();
  });

  it('keeps a context_management the caller set', () => {
    const own = { edits: [{ type: 'clear_thinking_20251015' }] };
    const merged = withAnthropicContextManagement(request('claude-opus-4-5', { context_management: own }), {
      betas: [CONTEXT_MANAGEMENT_BETA],
      contextManagement: { edits: [] },
    });
    expect(merged.providerOptions?.['context_management']).toEqual(own);
  });

  it('sums what the API reported per session and forgets a deleted session', async () => {
    const plugin = createNativeCompactionPlugin({ config: { anthropic: { clear_tool_uses: { enabled: true } } } });
    const host = createHost({ plugins: [plugin] });
    const session = await host.session('s');
    await session.append(user);
    const reply: Message = {
      id: 'a1',
      role: 'assistant',
      parts: [
        {
          id: 'a1:0',
          type: 'text',
          text: 'summary',
          extra: { _ctxhost_block_type: 'compaction', encrypted_content: null },
        },
        { id: 'a1:1', type: 'text', text: 'ok' },
      ],
      meta: {
        contextManagement: {
          applied_edits: [{ type: 'clear_tool_uses_20250919', cleared_tool_uses: 4, cleared_input_tokens: 9000 }],
        },
        usageIterations: [
          { type: 'compaction', input_tokens: 60_000, output_tokens: 700 },
          { type: 'message', input_tokens: 900, output_tokens: 20 },
        ],
      },
    };
    expect(isCompactionPart(reply.parts[0]!)).toBe(true);
    expect(compactionUsages(reply)).toEqual([
      { inputTokens: 60_000, outputTokens: 700, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
    ]);
    expect(compactionUsages(user)).toEqual([]);
    expect(readNativeReport(reply)).toEqual({
      appliedEdits: [{ type: 'clear_tool_uses_20250919', clearedToolUses: 4, clearedInputTokens: 9000 }],
      compaction: { inputTokens: 60_000, outputTokens: 700 },
    });
    await session.append(reply, {
      usage: { inputTokens: 900, outputTokens: 20, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
    });
    expect(plugin.totals('s')).toEqual({
      editsApplied: 1,
      clearedToolUses: 4,
      clearedThinkingTurns: 0,
      clearedInputTokens: 9000,
      compactions: 1,
      compactionInputTokens: 60_000,
      compactionOutputTokens: 700,
      fallbacks: [],
    });
    await host.emit('session.deleted', { sessionId: 's' });
    expect(plugin.totals('s')).toBeUndefined();
    await host.dispose();
  });
});

describe('withServerFirst', () => {
  const state = (promptTokens: number): EngineState => ({
    sessionId: 's',
    promptTokens,
    tokenSource: 'reported',
    contextWindow: 100_000,
    messageCount: 10,
  });

  it('compresses only past the fallback threshold, and then only if the wrapped engine would', () => {
    const engine = withServerFirst(inner, { fallbackThreshold: 0.9 });
    expect(engine.name).toBe('inner');
    expect(serverFirstThreshold(engine)).toBe(0.9);
    expect(serverFirstThreshold(inner)).toBeUndefined();
    expect([60_000, 89_999, 90_000].map((tokens) => engine.shouldCompress(state(tokens)))).toEqual([
      false,
      false,
      true,
    ]);
    expect(engine.shouldCompress({ ...state(95_000), contextWindow: undefined })).toBe(false);
  });

  it('rejects a threshold outside (0, 1]', () => {
    expect(() => withServerFirst(inner, { fallbackThreshold: 1.5 })).toThrow(
      /fallbackThreshold must be a number between 0 and 1, got 1.5/,
    );
  });
});
