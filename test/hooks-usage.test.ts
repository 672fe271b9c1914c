import { describe, expect, it } from 'vitest';
import { createHost, createTokenCounter, type Host, type Message, type ToastEvent, type Usage } from '@ctxhost/core';
import { createContextWindowMonitor } from '@ctxhost/context-window-monitor';
import { createPreemptiveCompaction, NOTICE_KIND } from '@ctxhost/preemptive-compaction';

const WINDOW = 10_000;
let counter = 0;
const text = (role: Message['role'], body: string): Message => {
  const id = `m${++counter}`;
  return { id, role, parts: [{ id: `${id}:0`, type: 'text', text: body }] };
};
/** Usage whose prompt size is exactly `percent` of the window. */
const usageAt = (percent: number): Usage => ({
  inputTokens: Math.round((WINDOW * percent) / 100),
  outputTokens: 0,
  cacheCreationInputTokens: 0,
  cacheReadInputTokens: 0,
});

function hostWith(
  ...plugins: Parameters<typeof createHost>[0] extends infer O
    ? O extends { plugins?: infer P }
      ? NonNullable<P>
      : never
    : never
) {
  const host = createHost({ config: { model: { contextLength: WINDOW } }, plugins, enginePlugin: false });
  const toasts: ToastEvent[] = [];
  host.hooks.toast.tapPromise('collect', async (toast) => {
    toasts.push(toast);
  });
  return { host, toasts };
}

/** An assistant turn whose request reported `percent` usage (the reply itself adds a few estimated tokens). */
async function turnAt(host: Host, sessionId: string, percent: number): Promise<void> {
  const session = await host.session(sessionId);
  await session.append(text('user', 'go on'));
  await session.append(text('assistant', 'ok'), { usage: usageAt(percent) });
}

describe('context-window-monitor', () => {
  it.each([
    [69.0, []],
    [70.0, ['info']],
    [79.0, ['info']],
    [80.0, ['warning']],
  ])('at %s%% toasts %j', async (percent, levels) => {
    const { host, toasts } = hostWith(createContextWindowMonitor());
    await turnAt(host, 's', percent);
    expect(toasts.map((toast) => toast.level)).toEqual(levels);
  });

  it('fires each threshold once per session, and tells the truth about the window', async () => {
    const { host, toasts } = hostWith(createContextWindowMonitor());
    await turnAt(host, 's', 71);
    await turnAt(host, 's', 75);
    await turnAt(host, 's', 81);
    await turnAt(host, 's', 90);
    expect(toasts.map((toast) => toast.level)).toEqual(['info', 'warning']);
    expect(toasts[0]?.text).toContain('10,000-token window');
  });

  it('re-arms after a compaction brings usage back under a threshold', async () => {
    const { host, toasts } = hostWith(createContextWindowMonitor());
    await turnAt(host, 's', 85);
    const session = await host.session('s');
    const summary = text('user', 'summary of earlier work');
    await session.applyCompaction([summary], {
      engine: 'test',
      reason: 'manual',
      tokensBefore: 8500,
      tokensAfter: 10,
      messagesBefore: 4,
      messagesAfter: 1,
    });
    await turnAt(host, 's', 82);
    expect(toasts.map((toast) => toast.level)).toEqual(['warning', 'warning']);
  });

  it('says once when the window is unknown instead of going quiet', async () => {
    const host = createHost({ plugins: [createContextWindowMonitor()], enginePlugin: false });
    const toasts: ToastEvent[] = [];
    host.hooks.toast.tapPromise('collect', async (toast) => {
      toasts.push(toast);
    });
    await turnAt(host, 's', 90);
    await turnAt(host, 's', 95);
    expect(toasts).toMatchObject([{ level: 'info', title: 'Context window unknown' }]);
  });

  it('drops its state on session.deleted', async () => {
    const { host, toasts } = hostWith(createContextWindowMonitor());
    await turnAt(host, 's', 81);
    await (await host.session('s')).delete();
    await turnAt(host, 's', 81);
    expect(toasts.map((toast) => toast.level)).toEqual(['warning', 'warning']);
  });

  it('is switched off by disabled_hooks', async () => {
    const host = createHost({
      config: { model: { contextLength: WINDOW }, disabledHooks: ['context-window-monitor'] },
      plugins: [createContextWindowMonitor()],
    });
    const toasts: ToastEvent[] = [];
    host.hooks.toast.tapPromise('collect', async (toast) => {
      toasts.push(toast);
    });
    await turnAt(host, 's', 95);
    expect(toasts).toEqual([]);
  });

  it('does not re-count old messages on each event', async () => {
    const tokenCounter = createTokenCounter();
    const host = createHost({
      config: { model: { contextLength: 1_000_000 } },
      counter: tokenCounter,
      plugins: [createContextWindowMonitor()],
      enginePlugin: false,
    });
    const session = await host.session('s');
    for (let i = 0; i < 200; i++)
      await session.append(text(i % 2 === 0 ? 'user' : 'assistant', `message ${i} `.repeat(20)));
    const missesBefore = tokenCounter.stats.misses;
    await session.append(text('user', 'one more'));
    await session.append(text('assistant', 'and the reply'));
    expect(tokenCounter.stats.misses - missesBefore).toBeLessThanOrEqual(2);
  });
});

describe('preemptive-compaction', () => {
  async function requestFor(host: Host, sessionId: string) {
    const session = await host.session(sessionId);
    return host.hooks.beforeRequest.promise(
      { sessionId, model: 'm', messages: session.messages(), maxTokens: 100 },
      { sessionId, contextWindow: WINDOW },
    );
  }

  it('appends one honest notice at the end of the next request, once per arming', async () => {
    const { host } = hostWith(createPreemptiveCompaction());
    await turnAt(host, 's', 79);
    expect((await requestFor(host, 's')).messages.some((message) => message.meta?.notice !== undefined)).toBe(false);
    await turnAt(host, 's', 81);
    const session = await host.session('s');
    await session.append(text('user', 'next step please'));
    const request = await requestFor(host, 's');
    expect(request.messages.filter((message) => message.meta?.notice !== undefined)).toHaveLength(1);
    const notice = request.messages.at(-1);
    expect(notice?.role).toBe('user');
    expect(notice?.meta?.notice).toBe(NOTICE_KIND);
    expect(notice?.parts[0]).toMatchObject({
      type: 'text',
      text: expect.stringContaining("of this model's 10,000-token context window"),
    });
    expect(session.messages().at(-1)?.id).toBe(notice?.id);
    await turnAt(host, 's', 90);
    const later = await requestFor(host, 's');
    expect(later.messages.filter((message) => message.meta?.notice !== undefined)).toHaveLength(1);
  });

  it('compacts with the active engine in compact mode', async () => {
    const host = createHost({
      config: { model: { contextLength: WINDOW }, context: { engine: 'keep-last' } },
      enginePlugin: false,
      plugins: [createPreemptiveCompaction({ mode: 'compact' })],
      engines: {
        'keep-last': () => ({
          name: 'keep-last',
          shouldCompress: () => false,
          compress: async (messages, context) => ({
            messages: messages.slice(-1),
            report: {
              engine: 'keep-last',
              reason: context.reason,
              // As at 85% of the window: what the ledger adds beside the kept message must still be a saving.
              tokensBefore: 8_500,
              tokensAfter: 10,
              messagesBefore: messages.length,
              messagesAfter: 1,
            },
          }),
        }),
      },
    });
    const reasons: string[] = [];
    host.hooks.compactionCompleted.tapPromise('t', async ({ report }) => {
      reasons.push(report.reason);
    });
    await turnAt(host, 's', 85);
    const session = await host.session('s');
    await session.append(text('user', 'continue'));
    const request = await requestFor(host, 's');
    expect(reasons).toEqual(['preemptive']);
    expect(request.messages.map((message) => message.id)).toEqual([session.messages()[0]?.id]);
    expect(session.history().length).toBe(3);
    // Through runCompaction: compaction.started is kept in the store before the applied compaction.
    const events = (await host.store.read('s')).filter((event) => event.type.startsWith('compaction.'));
    expect(events.map((event) => event.type)).toEqual(['compaction.started', 'compaction.applied']);
    expect(events[0]).toMatchObject({ reason: 'preemptive', engine: 'keep-last' });
  });

  it('drops its state on session.deleted and is switched off by disabled_hooks', async () => {
    const { host } = hostWith(createPreemptiveCompaction());
    await turnAt(host, 's', 85);
    await (await host.session('s')).delete();
    expect((await requestFor(host, 's')).messages.some((message) => message.meta?.notice !== undefined)).toBe(false);
    const off = createHost({
      config: { model: { contextLength: WINDOW }, disabledHooks: ['preemptive-compaction'] },
      plugins: [createPreemptiveCompaction()],
      enginePlugin: false,
    });
    await turnAt(off, 's', 95);
    expect((await requestFor(off, 's')).messages.some((message) => message.meta?.notice !== undefined)).toBe(false);
  });
});
