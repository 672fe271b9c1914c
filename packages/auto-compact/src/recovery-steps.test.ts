import { createHost } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { EMPTY_PLACEHOLDER, fixEmptyMessages } from './recovery-steps.js';

describe('fixEmptyMessages', () => {
  it('counts a reasoning-only message as empty and gives it a text part, keeping the reasoning', async () => {
    const host = createHost();
    const session = await host.session('empty');
    await session.append({ id: 'u1', role: 'user', parts: [{ id: 'u1:0', type: 'text', text: 'start' }] });
    await session.append({
      id: 'a1',
      role: 'assistant',
      parts: [{ id: 'a1:0', type: 'reasoning', text: 'thinking about it', signature: 'sig' }],
    });
    await session.append({ id: 'u2', role: 'user', parts: [{ id: 'u2:0', type: 'text', text: 'go on' }] });
    expect(await fixEmptyMessages(session)).toBe(1);
    const fixed = session.messages().find((message) => message.id === 'a1')!;
    expect(fixed.parts.map((part) => part.type)).toEqual(['reasoning', 'text']);
    expect(fixed.parts.at(-1)).toMatchObject({ text: EMPTY_PLACEHOLDER });
    expect(await fixEmptyMessages(session)).toBe(0);
  });
});
