import { describe, expect, it } from 'vitest';
import { isAppendOnlyView } from './append-only-view.js';
import { createHost } from './create-host.js';
import type { Message } from '../model/message.js';

const text = (id: string, role: Message['role'], body: string): Message => ({
  id,
  role,
  parts: [{ id: `${id}:0`, type: 'text', text: body }],
});

describe('session.messages(): an append-only view', () => {
  it('hands out one list while the session only appends, and a new one on any other change', async () => {
    const session = await createHost().session('s');
    await session.append(text('a', 'user', 'one'));
    const view = session.messages();
    expect(isAppendOnlyView(view)).toBe(true);
    await session.append(text('b', 'assistant', 'two'));
    expect(session.messages()).toBe(view);
    expect(view.map((message) => message.id)).toEqual(['a', 'b']);

    await session.update('a:0', { text: 'ONE' }, 'test');
    const updated = session.messages();
    expect(updated).not.toBe(view);
    expect(isAppendOnlyView(updated)).toBe(true);
    expect(view[0]?.parts[0]).toMatchObject({ text: 'one' });
    await session.append(text('c', 'user', 'three'));
    expect(view).toHaveLength(2);

    await session.revert('a');
    expect(updated.map((message) => message.id)).toEqual(['a', 'b', 'c']);
    expect(session.messages().map((message) => message.id)).toEqual(['a']);

    const beforeCompaction = session.messages();
    await session.applyCompaction([text('s', 'user', 'summary')], {
      engine: 'test',
      reason: 'manual',
      tokensBefore: 2,
      tokensAfter: 1,
      messagesBefore: 1,
      messagesAfter: 1,
    });
    expect(beforeCompaction.map((message) => message.id)).toEqual(['a']);
    expect(session.messages().map((message) => message.id)).toEqual(['s']);
  });

  it("is not claimed for a copy or a caller's own list", async () => {
    const session = await createHost().session('s');
    await session.append(text('a', 'user', 'one'));
    expect(isAppendOnlyView(session.messages().slice())).toBe(false);
    expect(isAppendOnlyView([text('x', 'user', 'x')])).toBe(false);
  });
});
