import { describe, expect, it } from 'vitest';
import { createHost, type Host, type Message } from '@ctxhost/core';
import { compressorEngineFactory } from '@ctxhost/compressor';
import { createSessionHygiene } from '@ctxhost/session-hygiene';

const WINDOW = 10_000;
let counter = 0;
const text = (role: Message['role'], body: string): Message => {
  const id = `h${++counter}`;
  return { id, role, parts: [{ id: `${id}:0`, type: 'text', text: body }] };
};

function hostWith(config: NonNullable<Parameters<typeof createHost>[0]>['config'] = {}): {
  host: Host;
  reasons: string[];
} {
  const host = createHost({
    config: { model: { contextLength: WINDOW }, compression: { protectLastN: 2 }, ...config },
    plugins: [createSessionHygiene()],
    enginePlugin: false,
    fallbackEngine: { name: 'compressor', factory: compressorEngineFactory },
  });
  const reasons: string[] = [];
  host.hooks.compactionCompleted.tapPromise('t', async ({ report }) => {
    reasons.push(report.reason);
  });
  return { host, reasons };
}

/** A session of `count` messages whose last request reported `percent` of the window. */
async function sessionAt(host: Host, percent: number, count = 10) {
  const session = await host.session(`s${++counter}`);
  await session.append(text('system', 'You are careful.'));
  for (let i = 1; i < count - 1; i++)
    await session.append(text(i % 2 ? 'user' : 'assistant', `turn ${i} ${'words '.repeat(400)}`));
  await session.append(text(count % 2 ? 'user' : 'assistant', 'last'), {
    usage: {
      inputTokens: (WINDOW * percent) / 100,
      outputTokens: 0,
      cacheCreationInputTokens: 0,
      cacheReadInputTokens: 0,
    },
  });
  await session.append(text('user', 'next?'));
  return session;
}

async function send(host: Host, sessionId: string) {
  const session = await host.session(sessionId);
  return host.hooks.beforeRequest.promise(
    { sessionId, model: 'm', messages: session.messages(), maxTokens: 100 },
    { sessionId, contextWindow: WINDOW },
  );
}

describe('session-hygiene', () => {
  it('compresses at 85% of the window with the active engine', async () => {
    const { host, reasons } = hostWith();
    const session = await sessionAt(host, 85);
    const request = await send(host, session.id);
    expect(reasons).toEqual(['hygiene']);
    expect(request.messages.length).toBeLessThan(session.history().length);
    expect(request.messages.some((message) => message.meta?.summary?.engine === 'compressor')).toBe(true);
  });

  it('brings the session under the engine’s threshold even when protect_last_n alone holds more than 85%', async () => {
    const { host } = hostWith({ compression: { protectLastN: 20 } });
    const session = await host.session(`s${++counter}`);
    await session.append(text('system', 'You are careful.'));
    for (let i = 1; i < 30; i++)
      await session.append(text(i % 2 ? 'user' : 'assistant', `turn ${i} ${'words '.repeat(500)}`));
    expect(host.counter.countAll(session.messages().slice(-20))).toBeGreaterThan(0.85 * WINDOW);
    const request = await send(host, session.id);
    expect(host.counter.countAll(request.messages)).toBeLessThanOrEqual(0.5 * WINDOW);
  });

  it('warns once when it leaves the session at 95% or more (the kept recent turns alone fill it)', async () => {
    const { host } = hostWith({ compression: { protectLastN: 20 } });
    const toasts: string[] = [];
    host.hooks.toast.tapPromise('t', async (toast) => {
      toasts.push(`${toast.title}: ${toast.text}`);
    });
    const session = await host.session(`s${++counter}`);
    await session.append(text('system', 'You are careful.'));
    await session.append(text('user', `read this ${'words '.repeat(5_000)}`));
    await session.append(text('assistant', 'read'), {
      usage: { inputTokens: 0.97 * WINDOW, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
    });
    await session.append(text('user', 'next?'));
    await send(host, session.id);
    await send(host, session.id);
    const warnings = toasts.filter((toast) => toast.startsWith('Session still near its window'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/at 9\d% of its 10,000-token window/);
  });

  it('leaves a session at 84% alone', async () => {
    const { host, reasons } = hostWith();
    const session = await sessionAt(host, 84);
    await send(host, session.id);
    expect(reasons).toEqual([]);
  });

  it('leaves sessions under 4 messages alone, whatever their size', async () => {
    const { host, reasons } = hostWith();
    const session = await host.session('tiny');
    await session.append(text('user', 'x'));
    await session.append(text('assistant', 'y'), {
      usage: { inputTokens: WINDOW, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
    });
    await send(host, 'tiny');
    expect(reasons).toEqual([]);
  });

  it('does nothing when compression is disabled or the hook is in disabled_hooks', async () => {
    for (const config of [{ compression: { enabled: false } }, { disabledHooks: ['session-hygiene' as const] }]) {
      const { host, reasons } = hostWith(config);
      const session = await sessionAt(host, 95);
      await send(host, session.id);
      expect(reasons).toEqual([]);
    }
  });

  it('keeps the transcript unchanged when compaction fails', async () => {
    const host = createHost({
      config: { model: { contextLength: WINDOW }, context: { engine: 'broken' } },
      plugins: [createSessionHygiene()],
      enginePlugin: false,
      engines: {
        broken: () => ({
          name: 'broken',
          shouldCompress: () => false,
          compress: async () => {
            throw new Error('engine exploded');
          },
        }),
      },
    });
    const toasts: string[] = [];
    host.hooks.toast.tapPromise('t', async (toast) => {
      toasts.push(toast.title);
    });
    const session = await sessionAt(host, 95);
    const before = session.messages();
    const request = await send(host, session.id);
    expect(request.messages).toEqual(before);
    expect(session.messages()).toEqual(before);
    expect(toasts).toContain('Session hygiene could not compact');
  });

  it('goes through compaction.before and records compaction.started, so a veto keeps the session as it was', async () => {
    const { host, reasons } = hostWith();
    const session = await sessionAt(host, 90);
    host.hooks.compactionBefore.tap('guard', (plan) => ({ ...plan, veto: { by: 'guard', why: 'not now' } }));
    const before = session.messages();
    const request = await send(host, session.id);
    expect(request.messages).toEqual(before);
    expect(reasons).toEqual([]);
    expect((await host.store.read(session.id)).at(-1)).toMatchObject({
      type: 'compaction.failed',
      reason: 'hygiene',
      vetoed: true,
    });
  });

  it('records compaction.started with the hygiene reason before the applied compaction', async () => {
    const { host } = hostWith();
    const session = await sessionAt(host, 90);
    await send(host, session.id);
    const events = (await host.store.read(session.id)).filter((event) => event.type.startsWith('compaction.'));
    expect(events.map((event) => event.type)).toEqual(['compaction.started', 'compaction.applied']);
    expect(events[0]).toMatchObject({ reason: 'hygiene', engine: 'compressor' });
  });
});
