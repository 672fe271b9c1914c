import { describe, expect, it } from 'vitest';
import type { Message } from '../model/message.js';
import { createMemoryStore } from './memory-store.js';
import { describeSessionStoreContract } from './store-contract.test-helper.js';

describeSessionStoreContract('memory store', () => createMemoryStore());

const message = (id: string, text: string): Message => ({
  id,
  role: 'user',
  parts: [{ id: `${id}:0`, type: 'text', text }],
});

describe('memory store seed', () => {
  it('reads seeded messages as appended events, then what was appended after them', async () => {
    const store = createMemoryStore({ copy: false });
    const seeded = [message('a', 'one'), message('b', 'two')];
    const last = store.seed('s', seeded);
    expect(last).toMatchObject({ type: 'message.appended', seq: 2, eventId: 'seed-2' });
    const after = await store.append(
      's',
      { type: 'message.appended', message: message('c', 'three') },
      { expectedSeq: 2 },
    );
    expect(after.seq).toBe(3);
    const events = await store.read('s');
    expect(events.map((event) => event.seq)).toEqual([1, 2, 3]);
    expect(events.map((event) => (event.type === 'message.appended' ? event.message.id : ''))).toEqual(['a', 'b', 'c']);
    expect(await store.list()).toEqual(['s']);
  });

  it('answers originals of seeded parts and of later events', async () => {
    const store = createMemoryStore({ copy: false });
    store.seed('s', [message('a', 'one')]);
    await store.append('s', {
      type: 'part.updated',
      messageId: 'a',
      partId: 'a:0',
      part: { id: 'a:0', type: 'text', text: 'shortened' },
      reason: 'test',
    });
    await store.append('s', { type: 'message.appended', message: message('b', 'two') });
    expect(await store.original('s', 'a:0')).toMatchObject({ text: 'one' });
    expect(await store.original('s', 'b:0')).toMatchObject({ text: 'two' });
  });

  it('refuses to seed a session that has events', async () => {
    const store = createMemoryStore({ copy: false });
    await store.append('s', { type: 'message.appended', message: message('a', 'one') });
    expect(() => store.seed('s', [message('b', 'two')])).toThrow(/already has events/);
  });
});
