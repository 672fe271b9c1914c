import { describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost, createHostAsync } from './create-host.js';
import { registerContextEngine, unregisterContextEngine } from '../engines/engine-registry.js';
import type { HookFailedEvent } from './host-hooks.js';
import type { Message } from '../model/message.js';
import type { Plugin } from './plugin.js';
import type { ContextEngine } from '../engines/context-engine.js';

const text = (id: string, role: Message['role'], body: string): Message => ({
  id,
  role,
  parts: [{ id: `${id}:0`, type: 'text', text: body }],
});
const plugin = (name: string, apply: Plugin['apply']): Plugin => ({ name, apply });

describe('createHost: hooks', () => {
  it('runs observers in tap order and stages request taps by stage', async () => {
    const order: string[] = [];
    const host = createHost({
      enginePlugin: false,
      plugins: [
        plugin('late', (h) =>
          h.hooks.beforeRequest.tapPromise(
            { name: 'late', stage: 100 },
            async (request) => (order.push('late'), request),
          ),
        ),
        plugin('early', (h) =>
          h.hooks.beforeRequest.tapPromise(
            { name: 'early', stage: 0 },
            async (request) => (order.push('early'), request),
          ),
        ),
      ],
    });
    await host.hooks.beforeRequest.promise(
      { sessionId: 's', model: 'm', messages: [], maxTokens: 1 },
      { sessionId: 's', contextWindow: undefined },
    );
    expect(order).toEqual(['early', 'late']);
  });

  it('stops a bail hook at the first non-undefined result, null included', async () => {
    const calls: string[] = [];
    const host = createHost();
    host.hooks.resend.tapPromise('first', async () => (calls.push('first'), undefined));
    host.hooks.resend.tapPromise('second', async () => (calls.push('second'), null as unknown as boolean));
    host.hooks.resend.tapPromise('third', async () => (calls.push('third'), true));
    await host.hooks.resend.promise({ sessionId: 's', reason: 'test' });
    expect(calls).toEqual(['first', 'second']);
  });

  it('reports a throwing tap as hook.failed and carries on', async () => {
    const failures: HookFailedEvent[] = [];
    const seen: string[] = [];
    const host = createHost({
      plugins: [
        plugin('broken', (h) =>
          h.hooks.messageUpdated.tapPromise('broken', async () => {
            throw new Error('boom');
          }),
        ),
        plugin('after', (h) =>
          h.hooks.messageUpdated.tapPromise('after', async ({ message }) => {
            seen.push(message.id);
          }),
        ),
        plugin('broken-transform', (h) =>
          h.hooks.toolResult.tapPromise('broken-transform', async () => {
            throw new Error('bad');
          }),
        ),
      ],
    });
    host.hooks.hookFailed.tap('collect', (failure) => {
      failures.push(failure);
    });
    const session = await host.session('s1');
    await session.append(text('m1', 'user', 'hi'));
    expect(seen).toEqual(['m1']);
    expect(failures).toMatchObject([{ hook: 'messageUpdated', plugin: 'broken', sessionId: 's1' }]);
    const part = { id: 'p', type: 'tool-result' as const, callId: 'c', output: 'kept' };
    await expect(host.hooks.toolResult.promise(part, { sessionId: 's1', toolName: 't', messageId: 'm' })).resolves.toBe(
      part,
    );
    expect(failures.map((failure) => failure.plugin)).toEqual(['broken', 'broken-transform']);
  });

  it('skips exactly the built-in hooks listed in disabled_hooks', () => {
    const host = createHost({
      config: { disabledHooks: ['session-hygiene'] },
      plugins: [
        plugin('session-hygiene', () => undefined),
        plugin('tool-output-truncator', () => undefined),
        plugin('mine', () => undefined),
      ],
    });
    expect(host.plugins).toEqual(['context-engine', 'tool-output-truncator', 'mine']);
  });

  it('refuses a plugin added after the first event, and duplicate names', async () => {
    const host = createHost({ plugins: [plugin('one', () => undefined)] });
    expect(() => host.use(plugin('one', () => undefined))).toThrow(/already applied/);
    await host.session('s');
    expect(() => host.use(plugin('two', () => undefined))).toThrow(/after the host started/);
  });
});

describe('createHost: sessions', () => {
  it('keeps history and originals while the projection changes', async () => {
    const host = createHost();
    const session = await host.session('s1');
    await session.append(text('m1', 'user', 'read the file'));
    await session.append({
      id: 'm2',
      role: 'tool',
      parts: [{ id: 'm2:0', type: 'tool-result', callId: 'c1', output: 'x'.repeat(1000) }],
    });
    await session.update('m2:0', { output: '[cleared]' }, 'test');
    expect(session.messages()[1]?.parts[0]).toMatchObject({ output: '[cleared]' });
    expect(session.history()[1]?.parts[0]).toMatchObject({ output: 'x'.repeat(1000) });
    expect(await session.original('m2:0')).toMatchObject({ output: 'x'.repeat(1000) });
    const removed = await session.revert('m1');
    expect(removed.map((message) => message.id)).toEqual(['m2']);
    expect(session.messages().map((message) => message.id)).toEqual(['m1']);
  });

  it('keeps the original of a part a tool-result tap shortened before the append', async () => {
    const host = createHost();
    const session = await host.session('s1');
    const full = { id: 'm1:0', type: 'tool-result' as const, callId: 'c', output: 'full output' };
    await session.append({ id: 'm1', role: 'tool', parts: [{ ...full, output: 'short' }] }, { originals: [full] });
    expect(await session.original('m1:0')).toEqual(full);
  });

  it('replays a session from its store', async () => {
    const host = createHost();
    const first = await host.session('s1');
    await first.append(text('m1', 'user', 'hello'));
    await first.applyCompaction([text('sum', 'user', 'summary')], {
      engine: 'test',
      reason: 'manual',
      tokensBefore: 9,
      tokensAfter: 3,
      messagesBefore: 1,
      messagesAfter: 1,
    });
    const again = createHost({ store: host.store });
    const reopened = await again.session('s1');
    expect(reopened.messages().map((message) => message.id)).toEqual(['sum']);
    expect(reopened.history().map((message) => message.id)).toEqual(['m1']);
  });

  it('prefers reported usage and estimates what came after', async () => {
    const host = createHost();
    const session = await host.session('s1');
    await session.append(text('m1', 'user', 'hello'));
    await session.append(text('m2', 'assistant', 'hi there'), {
      usage: { inputTokens: 100, outputTokens: 5, cacheCreationInputTokens: 0, cacheReadInputTokens: 900 },
    });
    const size = session.promptSize();
    expect(size.source).toBe('reported+estimated');
    expect(size.reportedTokens).toBe(1000);
    expect(size.tokens).toBeGreaterThan(1000);
  });

  it('rejects an invalid message with a message that says what is wrong', async () => {
    const session = await createHost().session('s1');
    await expect(
      session.append({ id: 'm1', role: 'user', parts: [{ id: 'p', type: 'text', text: 42 }] } as unknown as Message),
    ).rejects.toThrow(/message m1 .*parts\.0\.text/);
  });

  it('emits session.created once, and session.deleted dropping the session', async () => {
    const events: string[] = [];
    const host = createHost();
    host.hooks.sessionCreated.tapPromise('t', async ({ sessionId }) => {
      events.push(`created ${sessionId}`);
    });
    host.hooks.sessionDeleted.tapPromise('t', async ({ sessionId }) => {
      events.push(`deleted ${sessionId}`);
    });
    const session = await host.session('s1');
    await session.append(text('m1', 'user', 'x'));
    await host.session('s1');
    await session.delete();
    expect(events).toEqual(['created s1', 'deleted s1']);
    expect(await host.store.list()).toEqual([]);
  });

  it('serializes a session under exclusive, re-entrantly', async () => {
    const session = await createHost().session('s1');
    const trace: string[] = [];
    await Promise.all([
      session.exclusive(async () => {
        trace.push('turn:in');
        await session.append(text('m1', 'user', 'inside the lock'));
        await new Promise((resolve) => setTimeout(resolve, 10));
        trace.push('turn:out');
      }),
      session.exclusive(async () => {
        trace.push('recovery');
      }),
    ]);
    expect(trace).toEqual(['turn:in', 'turn:out', 'recovery']);
  });

  it('is unusable after dispose', async () => {
    const host = createHost();
    await host.dispose();
    expect(() => host.session('s')).toThrow(/disposed/);
  });

  it('waits for a write under way before closing the store, and refuses writes after dispose', async () => {
    const host = createHost({ enginePlugin: false });
    const session = await host.session('s');
    let finished = false;
    const turn = session.exclusive(async () => {
      await session.append(text('m1', 'user', 'written before dispose'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      finished = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await host.dispose();
    expect(finished).toBe(true);
    await turn;
    await expect(session.append(text('m2', 'user', 'too late'))).rejects.toThrow(/disposed/);
  });

  it('refuses writes to a deleted session and names how to start again', async () => {
    const host = createHost({ enginePlugin: false });
    const session = await host.session('s');
    await session.delete();
    await session.delete();
    await expect(session.append(text('m1', 'user', 'lost?'))).rejects.toThrow(/was deleted; open it again/);
    await host.dispose();
  });

  it('rejects a misspelt disabled_hooks name given in code', () => {
    expect(() => createHost({ config: { disabledHooks: ['context-window-montor' as never] } })).toThrow(
      /unknown hook "context-window-montor"/,
    );
  });
});

describe('createHost: context engines', () => {
  const fakeEngine = (name: string): ContextEngine => ({
    name,
    shouldCompress: () => false,
    compress: async (messages) => ({
      messages: [...messages],
      report: { engine: name, reason: 'manual', tokensBefore: 0, tokensAfter: 0, messagesBefore: 0, messagesAfter: 0 },
    }),
  });

  it('uses the registry, then the fallback, and says when a named engine is missing', async () => {
    registerContextEngine('test-registered', () => fakeEngine('test-registered'));
    try {
      expect(createHost({ config: { context: { engine: 'test-registered' } } }).engine.name).toBe('test-registered');
      expect(() => registerContextEngine('test-registered', () => fakeEngine('x'))).toThrow(/already registered/);
    } finally {
      unregisterContextEngine('test-registered');
    }
  });

  it('context.engine: none is no engine, even with a built-in compressor', () => {
    const host = createHost({
      config: { context: { engine: 'none' } },
      fallbackEngine: { name: 'compressor', factory: () => fakeEngine('compressor') },
    });
    expect(host.engine.name).toBe('none');
  });

  it('an engine name found nowhere is CTXHOST_ENGINE_NOT_FOUND, never the compressor in its place', async () => {
    const builtIn = { name: 'compressor', factory: () => fakeEngine('compressor') };
    expect(() => createHost({ config: { context: { engine: 'missing' } }, fallbackEngine: builtIn })).toThrow(
      expect.objectContaining({
        code: 'CTXHOST_ENGINE_NOT_FOUND',
        message: expect.stringMatching(/context\.engine "missing" was not found: .*Name one of "compressor", "none"/),
      }),
    );
    const dir = mkdtempSync(join(tmpdir(), 'ctxhost-engines-'));
    await expect(
      createHostAsync({
        cwd: dir,
        userPluginDir: dir,
        config: { context: { engine: 'missing' } },
        fallbackEngine: builtIn,
      }),
    ).rejects.toMatchObject({
      code: 'CTXHOST_ENGINE_NOT_FOUND',
      message: expect.stringContaining(`searched ${join(dir, 'context_engine', 'missing')} and the engine registry`),
    });
    // Bare core has no compressor: the default name, which nobody chose, is no engine there, silently.
    expect(createHost().engine.name).toBe('none');
  });

  it('loads an engine from a plugin folder only when context.engine names it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxhost-engines-'));
    const folder = join(dir, 'context_engine', 'folder-engine');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'index.js'),
      `export default () => ({ name: 'folder-engine', shouldCompress: () => false, compress: async (m) => ({ messages: m, report: {} }) });\n`,
    );
    const named = await createHostAsync({
      cwd: dir,
      config: { context: { engine: 'folder-engine' }, pluginDirs: [dir] },
    });
    expect(named.engine.name).toBe('folder-engine');
    const unnamed = await createHostAsync({ cwd: dir, config: { pluginDirs: [dir] } });
    expect(unnamed.engine.name).toBe('none');
  });
});
