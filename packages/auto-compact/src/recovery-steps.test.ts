import { createHost, type Message } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { EMPTY_PLACEHOLDER, fixEmptyMessages } from './recovery-steps.js';

const text = (id: string, role: 'user' | 'assistant', value: string): Message => ({
  id,
  role,
  parts: [{ id: `${id}:0`, type: 'text', text: value }],
});

async function sessionOf(messages: Message[]) {
  const session = await createHost().session('empty');
  for (const message of messages) await session.append(message);
  return session;
}

describe('fixEmptyMessages', () => {
  it('leaves a message with any part but text alone: reasoning (encrypted or not), a tool call', async () => {
    const session = await sessionOf([
      text('u1', 'user', 'start'),
      { id: 'a1', role: 'assistant', parts: [{ id: 'a1:0', type: 'reasoning', text: 'thinking', signature: 'sig' }] },
      {
        id: 'a2',
        role: 'assistant',
        parts: [{ id: 'a2:0', type: 'reasoning', text: '', extra: { id: 'rs_1', encrypted_content: 'gAAA' } }],
      },
      {
        id: 'a3',
        role: 'assistant',
        parts: [{ id: 'a3:0', type: 'tool-call', callId: 'c1', name: 'read', input: {} }],
      },
      {
        id: 'u2',
        role: 'user',
        parts: [{ id: 'u2:0', type: 'tool-result', callId: 'c1', name: 'read', output: 'ok' }],
      },
      text('u3', 'user', 'go on'),
    ]);
    const before = session.messages();
    expect(await fixEmptyMessages(session)).toBe(0);
    expect(session.messages()).toEqual(before);
  });

  it('fills an empty message, gives a partless one a text part, and drops blank text beside reasoning', async () => {
    const session = await sessionOf([
      text('u1', 'user', 'start'),
      {
        id: 'a1',
        role: 'assistant',
        parts: [
          { id: 'a1:0', type: 'reasoning', text: 'thinking', signature: 'sig' },
          { id: 'a1:1', type: 'text', text: ' ' },
        ],
      },
      text('u2', 'user', ''),
      { id: 'a2', role: 'assistant', parts: [] },
      text('u3', 'user', 'go on'),
    ]);
    expect(await fixEmptyMessages(session)).toBe(3);
    const byId = new Map(session.messages().map((message) => [message.id, message]));
    expect(byId.get('a1')!.parts.map((part) => part.type)).toEqual(['reasoning']);
    expect(byId.get('u2')!.parts).toMatchObject([{ type: 'text', text: EMPTY_PLACEHOLDER }]);
    expect(byId.get('a2')!.parts).toMatchObject([{ type: 'text', text: EMPTY_PLACEHOLDER }]);
    expect(await fixEmptyMessages(session)).toBe(0);
  });
});
