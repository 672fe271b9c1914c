import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CtxhostError } from '@ctxhost/core';
import { appended, textMessage } from '../../core/src/stores/store-contract.test-helper.js';
import { POSTGRES_STORE_ERROR_CODES } from './errors.js';
import { createPostgresStore, type PostgresStore } from './postgres-store.js';
import { sessionLockKey } from './session-locks.js';
import { dropSchema, testDatabaseUrl, uniqueSchemaName } from './test-database.test-helper.js';

const schema = uniqueSchemaName('locks');
let store: PostgresStore;
beforeEach(() => {
  store = createPostgresStore({ url: testDatabaseUrl(), schema, maxConnections: 3 });
});
afterEach(() => store.close());
afterAll(() => dropSchema(schema));

describe('withSessionLock', () => {
  it('runs sections of one session one at a time, with many more callers than connections', async () => {
    const events: string[] = [];
    await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        store.withSessionLock('busy', async () => {
          events.push(`enter ${index}`);
          await store.append('busy', appended(textMessage(`m${index}`, 'x')));
          events.push(`exit ${index}`);
        }),
      ),
    );
    const pairs = Array.from({ length: 12 }, (_, index) => [
      events[2 * index]!.replace('enter', ''),
      events[2 * index + 1]!.replace('exit', ''),
    ]);
    expect(pairs.every(([entered, exited]) => entered === exited)).toBe(true);
    expect(await store.read('busy')).toHaveLength(12);
  });

  it('is re-entrant, runs store calls made inside on its connection (also several at once), and returns fn’s value', async () => {
    const result = await store.withSessionLock('nested', () =>
      store.withSessionLock('nested', async () => {
        await Promise.all(
          Array.from({ length: 5 }, (_, index) => store.append('nested', appended(textMessage(`m${index}`, 'x')))),
        );
        return (await store.read('nested')).length;
      }),
    );
    expect(result).toBe(5);
    expect(await heldLocks('nested')).toStrictEqual([]);
  });

  it('releases the lock when fn throws, and rethrows', async () => {
    const error = await store
      .withSessionLock('throws', () => Promise.reject(new Error('turn failed')))
      .catch((caught: unknown) => caught);
    expect((error as Error).message).toBe('turn failed');
    expect(await heldLocks('throws')).toStrictEqual([]);
    expect(await store.withSessionLock('throws', async () => 'again')).toBe('again');
  });

  it('survives the server dropping the lock connection mid-section: the next call fails, the process lives, the lock is free', async () => {
    const error = await store
      .withSessionLock('dropped', async () => {
        const [holder] = await heldLocks('dropped');
        await store.pool.query('SELECT pg_terminate_backend($1)', [holder!.pid]);
        await new Promise((resolve) => setTimeout(resolve, 100));
        await store.append('dropped', appended(textMessage('m1', 'x')));
      })
      .catch((caught: unknown) => caught);
    expect(CtxhostError.hasCode(error, POSTGRES_STORE_ERROR_CODES.lockLost)).toBe(true);
    expect((error as Error).message).toContain('the lock is gone');
    expect(
      await store.withSessionLock('dropped', () => store.append('dropped', appended(textMessage('m2', 'y')))),
    ).toMatchObject({ seq: 1 });
  });
});

describe('subscribe', () => {
  it('listens again after the server dropped the listening connection', async () => {
    const reconnecting = createPostgresStore({ url: testDatabaseUrl(), schema });
    const heard: string[] = [];
    try {
      await reconnecting.subscribe((notification) => void heard.push(notification.sessionId));
      await store.pool.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN "${schema}_events"'`,
      );
      for (let attempt = 0; attempt < 300 && heard.length === 0; attempt += 1) {
        await store.delete(`probe-${attempt}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(heard.length).toBeGreaterThan(0);
    } finally {
      await reconnecting.close();
    }
  });
});

async function heldLocks(sessionId: string): Promise<{ pid: number }[]> {
  const result = await store.pool.query<{ pid: number }>(
    `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 AND granted
       AND ((classid::bigint << 32) | objid::bigint) = hashtextextended($1, 0)`,
    [sessionLockKey(schema, sessionId)],
  );
  return result.rows;
}
