import { createHost, type ToastEvent } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { createAutoCompactPlugin } from './auto-compact-plugin.js';

describe('what must stay, when the request carried more than the session holds', () => {
  it('names what the agent sent beside the conversation (opencode’s own system prompt and tools), not the user’s short turn', async () => {
    const host = createHost({ plugins: [createAutoCompactPlugin()], config: {} });
    const toasts: ToastEvent[] = [];
    host.hooks.toast.tapPromise('test', async (toast) => void toasts.push(toast));
    const session = await host.session('s');
    session.contextWindow = 8_000;
    await session.append({
      id: 'u1',
      role: 'user',
      parts: [{ id: 'u1:0', type: 'text', text: 'please review the order service. '.repeat(60) }],
    });
    const turn = session.promptSize().tokens;
    // The API counted 11,367: opencode adds its system prompt and tool definitions, which the session never sees.
    await host.emit('session.error', {
      sessionId: 's',
      error: {
        kind: 'context_overflow',
        message: 'prompt is too long: 11367 tokens > 8000 maximum',
        currentTokens: 11_367,
        maxTokens: 8_000,
      },
      raw: null,
    });
    await host.emit('session.idle', { sessionId: 's' });
    const failed = toasts.find((toast) => toast.level === 'error');
    expect(failed?.title).toBe('Manual intervention needed');
    const newestTurn = /the newest user turn \(about ([\d,]+) tokens\)/.exec(failed!.text);
    expect(Number(newestTurn?.[1]?.replace(/,/g, ''))).toBeLessThan(turn * 1.5);
    expect(failed?.text).toMatch(
      /what the request carried beside the conversation \(the agent's own system prompt and tool definitions, about [\d,]+ tokens\)/,
    );
  });

  it('says "takes" when one part must stay, and lists three as a sentence does', async () => {
    const host = createHost({ plugins: [createAutoCompactPlugin()], config: {} });
    const toasts: ToastEvent[] = [];
    host.hooks.toast.tapPromise('test', async (toast) => void toasts.push(toast));
    const overflow = async (sessionId: string, system: boolean, unseen: number) => {
      const session = await host.session(sessionId);
      session.contextWindow = 1_000;
      if (system)
        await session.append({
          id: `${sessionId}-s`,
          role: 'system',
          parts: [{ id: `${sessionId}-s:0`, type: 'text', text: 'Be brief. '.repeat(20) }],
        });
      await session.append({
        id: `${sessionId}-u`,
        role: 'user',
        parts: [{ id: `${sessionId}-u:0`, type: 'text', text: 'please review the order service. '.repeat(150) }],
      });
      const tokens = session.promptSize().tokens + unseen;
      await host.emit('session.error', {
        sessionId,
        error: {
          kind: 'context_overflow',
          message: `prompt is too long: ${tokens} tokens > 1000 maximum`,
          currentTokens: tokens,
          maxTokens: 1_000,
        },
        raw: null,
      });
      await host.emit('session.idle', { sessionId });
      return toasts.findLast((toast) => toast.level === 'error')!.text;
    };
    expect(await overflow('one', false, 0)).toMatch(
      /^What must stay does not fit: the newest user turn \(about [\d,]+ tokens\) takes about /,
    );
    expect(await overflow('three', true, 5_000)).toMatch(
      /: the system prompt \(about [\d,]+ tokens\), the newest user turn \(about [\d,]+ tokens\) and what the request carried beside the conversation \(.*\) take about /,
    );
  });
});
