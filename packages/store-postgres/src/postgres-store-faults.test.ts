import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CtxhostError } from '@ctxhost/core';
import { appended, textMessage } from '../../core/src/stores/store-contract.test-helper.js';
import { POSTGRES_STORE_ERROR_CODES } from './errors.js';
import { createPgClient } from './pg-driver.js';
import { createPostgresStore, type PostgresStore } from './postgres-store.js';
import type { PostgresStoreOptions } from './store-options.js';
import { startTcpProxy, targetOf, type TcpProxy } from './tcp-proxy.test-helper.js';
import { dropSchema, testDatabaseUrl, uniqueSchemaName } from './test-database.test-helper.js';

const schemas: string[] = [];
afterAll(async () => {
  for (const schema of schemas) await dropSchema(schema);
});

/** A second connection, outside every store: it holds row locks and terminates the store's backends. */
async function adminConnection() {
  const client = createPgClient(testDatabaseUrl());
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

describe('postgres store under faults', () => {
  let schema: string;
  let stores: PostgresStore[];
  let proxies: TcpProxy[];
  const open = (options: PostgresStoreOptions = {}) => {
    const store = createPostgresStore({ url: testDatabaseUrl(), schema, ...options });
    stores.push(store);
    return store;
  };
  beforeEach(() => {
    schema = uniqueSchemaName('faults');
    schemas.push(schema);
    stores = [];
    proxies = [];
  });
  afterEach(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await Promise.all(proxies.map((proxy) => proxy.close()));
  });

  it('survives the server ending the connection under an append: no crash, retried once, stored once', async () => {
    const store = open();
    await store.append('s1', appended(textMessage('m0', 'first')));
    const admin = await adminConnection();
    try {
      // Hold the session's counter row so the append waits inside its transaction, then cut its connection.
      await admin.query('BEGIN');
      await admin.query(`SELECT * FROM "${schema}".sessions WHERE session_id = 's1' FOR UPDATE`);
      const pending = store.append('s1', appended(textMessage('m1', 'second')), { eventId: 'e1' });
      const pid = await waitForBlockedBackend(admin, schema);
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await admin.query('COMMIT');
      const stored = await pending;
      expect(stored.eventId).toBe('e1');
    } finally {
      await admin.end();
    }
    const events = await open().read('s1');
    expect(events.map((event) => event.eventId).filter((id) => id === 'e1')).toHaveLength(1);
    expect(events.map((event) => event.seq)).toStrictEqual([1, 2]);
  });

  it('gives up on a server that stops answering within the timeouts, and close() returns', async () => {
    const proxy = await startTcpProxy(targetOf(testDatabaseUrl()));
    proxies.push(proxy);
    const store = open({
      url: proxy.urlFor(testDatabaseUrl()),
      timeouts: { connectMs: 500, statementMs: 400, closeMs: 300 },
    });
    await store.append('s1', appended(textMessage('m0', 'before')));
    proxy.partition();
    const started = Date.now();
    const error = await store.append('s1', appended(textMessage('m1', 'during'))).catch((caught: unknown) => caught);
    expect(
      CtxhostError.hasCode(error, POSTGRES_STORE_ERROR_CODES.timeout) ||
        CtxhostError.hasCode(error, POSTGRES_STORE_ERROR_CODES.unreachable),
    ).toBe(true);
    expect((error as Error).message).toMatch(/timeouts\.(statementMs|connectMs)/);
    const read = await store.read('s1').catch((caught: unknown) => caught);
    expect(CtxhostError.isInstance(read)).toBe(true);
    await store.close();
    // Two calls and close() with a retry at most, each bounded: far below any "forever".
    expect(Date.now() - started).toBeLessThan(6_000);
  });

  it('a waiter for a lock whose holder is stuck gets CTXHOST_POSTGRES_LOCK_TIMEOUT', async () => {
    const [holder, waiter] = [open(), open({ timeouts: { lockMs: 300 } })];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = holder.withSessionLock('s1', async () => {
      locked();
      await held;
    });
    await isLocked;
    const error = await waiter.withSessionLock('s1', async () => 'ran').catch((caught: unknown) => caught);
    release();
    await holding;
    expect(CtxhostError.hasCode(error, POSTGRES_STORE_ERROR_CODES.lockTimeout)).toBe(true);
    expect((error as Error).message).toContain('timeouts.lockMs');
    // The waiter's pool is still good: the lock is free now.
    expect(await waiter.withSessionLock('s1', async () => 'ran')).toBe('ran');
  });

  it('refuses ids PostgreSQL would change or cannot index, the same way as the file store', async () => {
    const store = open();
    for (const id of ['a\ud800', 'b\udc00x', 'nul\u0000id', 'x'.repeat(1025), '']) {
      const error = await store.append(id, appended(textMessage('m', 't'))).catch((caught: unknown) => caught);
      expect(CtxhostError.hasCode(error, 'CTXHOST_STORE_ID_INVALID')).toBe(true);
    }
    const badEvent = await store
      .append('ok', appended(textMessage('m', 't')), { eventId: 'e\udfff' })
      .catch((caught: unknown) => caught);
    expect(CtxhostError.hasCode(badEvent, 'CTXHOST_STORE_ID_INVALID')).toBe(true);
    expect(await store.list()).toStrictEqual([]);
  });

  it('names data the server refused as such, not as an unreachable server', async () => {
    const store = open();
    const hugePartId = randomBytes(8_000).toString('hex'); // incompressible: too big for a btree index row
    const error = await store
      .append('s1', {
        type: 'message.appended',
        message: { id: 'm', role: 'user', parts: [{ id: hugePartId, type: 'text', text: 't' }] },
      })
      .catch((caught: unknown) => caught);
    expect(CtxhostError.hasCode(error, POSTGRES_STORE_ERROR_CODES.queryFailed)).toBe(true);
    expect((error as Error).message).toMatch(/server refused it/);
    expect((error as Error).message).not.toMatch(/reachable/);
  });
});

async function waitForBlockedBackend(
  admin: Awaited<ReturnType<typeof adminConnection>>,
  schema: string,
): Promise<number> {
  for (const started = Date.now(); Date.now() - started < 20_000;) {
    // The admin connection is inside a transaction, where pg_stat_activity is a snapshot: refresh it.
    await admin.query('SELECT pg_stat_clear_snapshot()');
    const rows = await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1 AND pid <> pg_backend_pid()`,
      [`%${schema}%`],
    );
    if (rows.rows[0] !== undefined) return rows.rows[0].pid;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the append never waited on the row lock');
}
