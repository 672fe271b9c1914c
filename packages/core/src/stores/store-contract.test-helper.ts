import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message, Part } from '../model/message.js';
import type { CacheEntry, SessionStore, StoreEvent } from './session-store.js';

/**
 * The behaviour every SessionStore promises, as one suite. Run it against an
 * implementation with `describeSessionStoreContract('file store', () => createFileStore({ directory }))`.
 * `createStore` is called once per test, and the store is closed after it.
 */
export function describeSessionStoreContract(
  name: string,
  createStore: () => SessionStore | Promise<SessionStore>,
): void {
  describe(`SessionStore contract: ${name}`, () => {
    let store: SessionStore;
    beforeEach(async () => {
      store = await createStore();
    });
    afterEach(async () => {
      await store.close();
    });

    it('assigns seq from 1, a timestamp and an event id, and reads events back in order', async () => {
      const first = await store.append('s1', appended(textMessage('m1', 'hello')));
      const second = await store.append('s1', appended(textMessage('m2', 'world')));
      expect([first.seq, second.seq]).toStrictEqual([1, 2]);
      expect(Number.isNaN(Date.parse(first.at))).toBe(false);
      expect(first.eventId).not.toBe(second.eventId);
      expect(await store.read('s1')).toStrictEqual([first, second]);
    });

    it('keeps every event type exactly as appended', async () => {
      const events: StoreEvent[] = [
        appended(textMessage('m1', 'a')),
        { type: 'part.updated', messageId: 'm1', partId: 'm1-p', part: textPart('m1-p', 'A'), reason: 'test' },
        {
          type: 'usage.reported',
          usage: { inputTokens: 1, outputTokens: 2, cacheCreationInputTokens: 3, cacheReadInputTokens: 4 },
          afterMessageId: 'm1',
        },
        {
          type: 'compaction.applied',
          projection: [textMessage('sum', 'summary')],
          report: {
            engine: 'test',
            reason: 'manual',
            tokensBefore: 10,
            tokensAfter: 2,
            messagesBefore: 1,
            messagesAfter: 1,
          },
        },
        { type: 'reverted', toMessageId: 'm1', removedMessageIds: ['sum'] },
      ];
      for (const event of events) await store.append('s1', event);
      const read = await store.read('s1');
      expect(read.map(({ seq: _seq, at: _at, eventId: _eventId, ...event }) => event)).toStrictEqual(events);
    });

    it('keeps sessions apart and lists the sessions that have events', async () => {
      await store.append('a', appended(textMessage('m1', 'in a')));
      await store.append('b/../c', appended(textMessage('m1', 'in b')));
      expect(await store.list()).toStrictEqual(['a', 'b/../c']);
      expect((await store.read('a')).map(messageText)).toStrictEqual(['in a']);
      expect((await store.read('b/../c')).map(messageText)).toStrictEqual(['in b']);
      expect(await store.read('never-written')).toStrictEqual([]);
    });

    it('makes an append with the same eventId idempotent', async () => {
      const first = await store.append('s1', appended(textMessage('m1', 'once')), { eventId: 'e-1' });
      const retry = await store.append('s1', appended(textMessage('m1', 'once')), { eventId: 'e-1' });
      expect(retry).toStrictEqual(first);
      expect(await store.read('s1')).toHaveLength(1);
    });

    it('returns a part as first appended, whatever updates came later', async () => {
      await store.append('s1', appended(textMessage('m1', 'the full tool output')));
      await store.append('s1', {
        type: 'part.updated',
        messageId: 'm1',
        partId: 'm1-p',
        part: textPart('m1-p', '[truncated]'),
        reason: 'truncated',
      });
      await store.append('s1', {
        type: 'part.updated',
        messageId: 'm1',
        partId: 'new-part',
        part: textPart('new-part', 'first seen in an update'),
        reason: 'added',
      });
      expect(await store.original('s1', 'm1-p')).toStrictEqual(textPart('m1-p', 'the full tool output'));
      expect(await store.original('s1', 'new-part')).toStrictEqual(textPart('new-part', 'first seen in an update'));
      expect(await store.original('s1', 'missing')).toBeUndefined();
      expect(await store.original('other-session', 'm1-p')).toBeUndefined();
    });

    it('gives out copies: changing what it returned changes nothing stored', async () => {
      const message = textMessage('m1', 'original');
      const stored = await store.append('s1', appended(message));
      (message.parts[0] as { text: string }).text = 'changed after append';
      if (stored.type === 'message.appended') stored.message.id = 'changed';
      const read = await store.read('s1');
      read.pop();
      const part = await store.original('s1', 'm1-p');
      if (part?.type === 'text') part.text = 'changed original';
      expect((await store.read('s1')).map(messageText)).toStrictEqual(['original']);
      expect(await store.original('s1', 'm1-p')).toStrictEqual(textPart('m1-p', 'original'));
    });

    it('serializes concurrent appends to one session: contiguous seqs, nothing lost', async () => {
      const results = await Promise.all(
        Array.from({ length: 25 }, (_, index) =>
          store.append('s1', appended(textMessage(`m${index}`, `text ${index}`))),
        ),
      );
      expect(results.map((event) => event.seq).sort((left, right) => left - right)).toStrictEqual(
        Array.from({ length: 25 }, (_, index) => index + 1),
      );
      const read = await store.read('s1');
      expect(read.map((event) => event.seq)).toStrictEqual(Array.from({ length: 25 }, (_, index) => index + 1));
      expect(new Set(read.map(messageText)).size).toBe(25);
    });

    it('appends with expectedSeq only onto that head: a stale writer is refused and nothing is written', async () => {
      await store.append('s1', appended(textMessage('m1', 'first')), { expectedSeq: 0 });
      await store.append('s1', appended(textMessage('m2', 'second')));
      const refused = store.append('s1', appended(textMessage('m3', 'on a stale view')), { expectedSeq: 1 });
      await expect(refused).rejects.toMatchObject({ code: 'CTXHOST_STORE_CONFLICT', expectedSeq: 1, actualSeq: 2 });
      await expect(store.append('s1', appended(textMessage('m0', 'ahead')), { expectedSeq: 3 })).rejects.toThrow(
        /another writer/,
      );
      expect((await store.read('s1')).map(messageText)).toStrictEqual(['first', 'second']);
      const accepted = await store.append('s1', appended(textMessage('m3', 'fresh')), { expectedSeq: 2 });
      expect(accepted.seq).toBe(3);
      await expect(store.append('empty', appended(textMessage('m1', 'x')), { expectedSeq: 1 })).rejects.toMatchObject({
        code: 'CTXHOST_STORE_CONFLICT',
        actualSeq: 0,
      });
    });

    it('lets exactly one of several writers expecting the same head through', async () => {
      await store.append('s1', appended(textMessage('m1', 'base')));
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, (_, index) =>
          store.append('s1', appended(textMessage(`w${index}`, `writer ${index}`)), { expectedSeq: 1 }),
        ),
      );
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      expect(await store.read('s1')).toHaveLength(2);
    });

    it('returns a stored event id on retry even when the head has moved past it', async () => {
      const first = await store.append('s1', appended(textMessage('m1', 'once')), { eventId: 'e-1', expectedSeq: 0 });
      await store.append('s1', appended(textMessage('m2', 'later')));
      expect(
        await store.append('s1', appended(textMessage('m1', 'once')), { eventId: 'e-1', expectedSeq: 0 }),
      ).toStrictEqual(first);
    });

    it('deletes a session: no events, no originals, not listed, and it can start again', async () => {
      await store.append('s1', appended(textMessage('m1', 'gone soon')));
      await store.append('s2', appended(textMessage('m1', 'stays')));
      await store.delete('s1');
      expect(await store.read('s1')).toStrictEqual([]);
      expect(await store.original('s1', 'm1-p')).toBeUndefined();
      expect(await store.list()).toStrictEqual(['s2']);
      const restarted = await store.append('s1', appended(textMessage('m9', 'again')));
      expect(restarted.seq).toBe(1);
    });

    describe('content-addressed entries', () => {
      it('writes an entry once: the first writer wins and every writer gets the stored one', async () => {
        const [first, second] = await Promise.all([
          store.putEntry!(cacheEntry('k-aaaaaaaa', 'index-one', 'first')),
          store.putEntry!(cacheEntry('k-aaaaaaaa', 'index-one', 'second')),
        ]);
        expect(first.body).toBe(second.body);
        expect(['"first"', '"second"']).toContain(first.body);
        expect((await store.getEntry!('k-aaaaaaaa'))?.body).toBe(first.body);
        expect(await store.entryHeads!('index-one')).toStrictEqual([
          { key: 'k-aaaaaaaa', coveredLength: 3, coveredHash: 'h-k-aaaaaaaa', settings: 'settings1' },
        ]);
      });

      it('lists heads by index only, and answers unknown keys and indexes with nothing', async () => {
        await store.putEntry!(cacheEntry('k-bbbbbbbb', 'index-one', 'b'));
        await store.putEntry!(cacheEntry('k-cccccccc', 'index-two', 'c'));
        await store.putEntry!(cacheEntry('k-dddddddd', 'index-one', 'd'));
        const keys = (await store.entryHeads!('index-one')).map((head) => head.key).sort();
        expect(keys).toStrictEqual(['k-bbbbbbbb', 'k-dddddddd']);
        expect(await store.entryHeads!('index-none')).toStrictEqual([]);
        expect(await store.getEntry!('k-nothere0')).toBeUndefined();
        expect(await store.getEntry!('../../etc/passwd')).toBeUndefined();
      });

      it('refuses an entry whose key or index could name a path', async () => {
        await expect(store.putEntry!(cacheEntry('../escape', 'index-one', 'x'))).rejects.toThrow(/key/);
        await expect(store.putEntry!(cacheEntry('k-eeeeeeee', 'a/b/c/d/e', 'x'))).rejects.toThrow(/index/);
      });
    });
  });
}

function cacheEntry(key: string, index: string, body: string): CacheEntry {
  return { key, index, coveredLength: 3, coveredHash: `h-${key}`, settings: 'settings1', body: JSON.stringify(body) };
}

export function textPart(id: string, text: string): Part {
  return { id, type: 'text', text };
}

export function textMessage(id: string, text: string): Message {
  return { id, role: 'user', parts: [textPart(`${id}-p`, text)] };
}

export function appended(message: Message): StoreEvent {
  return { type: 'message.appended', message };
}

function messageText(event: StoreEvent): string | undefined {
  const part = event.type === 'message.appended' ? event.message.parts[0] : undefined;
  return part?.type === 'text' ? part.text : undefined;
}
