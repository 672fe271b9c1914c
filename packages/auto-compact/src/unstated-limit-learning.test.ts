import { createHost, relaxLearnedWindow, withLearnedWindow, type ToastEvent } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { createUnstatedLimitLearning } from './unstated-limit-learning.js';

async function rig() {
  const host = createHost();
  const toasts: ToastEvent[] = [];
  host.hooks.toast.tapPromise('test', async (toast) => void toasts.push(toast));
  const session = await host.session('s');
  session.contextWindow = 200_000;
  await session.append({
    id: 'u1',
    role: 'user',
    parts: [{ id: 'u1:0', type: 'text', text: 'the build log says error TS2322 in src/app.ts; '.repeat(400) }],
  });
  const learning = createUnstatedLimitLearning(host);
  learning.sentTo('s', 'gpt-5.5');
  return { host, session, learning, toasts, refused: session.promptSize().tokens };
}

describe('what a probe of an overflow that names no limit leaves behind', () => {
  it('makes the largest prompt answered the session’s and the model’s window, said once', async () => {
    const { host, session, learning, toasts, refused } = await rig();
    learning.rejected(session);
    expect(session.contextWindow).toBe(200_000);
    await learning.fitted(session, Math.floor(refused / 3));
    expect(session.contextWindow).toBe(Math.floor(refused / 3));
    expect(withLearnedWindow(host, 'gpt-5.5', 400_000)).toBe(Math.floor(refused / 3));
    await learning.fitted(session, Math.floor(refused / 4));
    expect(session.contextWindow).toBe(Math.floor(refused / 3));
    expect(toasts.map((toast) => toast.title)).toEqual(['Context window learned']);
  });

  it('raises the window when a larger prompt is answered, and forgets it at one as large as the refused', async () => {
    const { host, session, learning, toasts, refused } = await rig();
    learning.rejected(session);
    await learning.fitted(session, Math.floor(refused / 3));
    await learning.fitted(session, Math.floor(refused / 2));
    expect(session.contextWindow).toBe(Math.floor(refused / 2));
    expect(toasts).toHaveLength(1);
    await learning.fitted(session, refused);
    expect(session.contextWindow).toBe(200_000);
    expect(withLearnedWindow(host, 'gpt-5.5', 400_000)).toBe(400_000);
  });

  it('learns nothing from a prompt answered when nothing was refused', async () => {
    const { host, session, learning, toasts } = await rig();
    await learning.fitted(session, 1_000);
    expect(session.contextWindow).toBe(200_000);
    expect(withLearnedWindow(host, 'gpt-5.5', 400_000)).toBe(400_000);
    expect(toasts).toHaveLength(0);
  });

  it('starts from the model’s bound, not an older one of its own, when another request moved it', async () => {
    const { host, session, learning, refused } = await rig();
    learning.rejected(session);
    await learning.fitted(session, Math.floor(refused / 3));
    // A stateless request of the same model answered a larger prompt since.
    relaxLearnedWindow(host, 'gpt-5.5', () => Math.floor(refused / 2));
    learning.rejected(session);
    expect(withLearnedWindow(host, 'gpt-5.5', 400_000)).toBe(Math.floor(refused / 2));
  });
});
