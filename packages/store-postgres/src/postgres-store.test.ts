import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CtxhostError } from '@ctxhost/core';
import {
  appended,
  describeSessionStoreContract,
  textMessage,
} from '../../core/src/stores/store-contract.test-helper.js';
import { POSTGRES_STORE_ERROR_CODES } from './errors.js';
import { LATEST_SCHEMA_VERSION } from './migrations.js';
import { createPgPool } from './pg-driver.js';
import { createPostgresStore, type PostgresStore } from './postgres-store.js';
import { dropSchema, testDatabaseUrl, uniqueSchemaName } from './test-database.test-helper.js';

const schemas: string[] = [];
function freshSchema(label: string): string {
  const schema = uniqueSchemaName(label);
  schemas.push(schema);
  return schema;
}
afterAll(async () => {
  for (const schema of schemas) await dropSchema(schema);
});

describeSessionStoreContract('postgres store', () =>
  createPostgresStore({ url: testDatabaseUrl(), schema: freshSchema('contract') }),
);

describe('postgres store', () => {
  let schema: string;
  let stores: PostgresStore[];
  const open = () => {
    const store = createPostgresStore({ url: testDatabaseUrl(), schema });
    stores.push(store);
    return store;
  };
  beforeEach(() => {
    schema = freshSchema('store');
    stores = [];
  });
  afterEach(async () => {
    await Promise.all(stores.map((store) => store.close()));
  });

  it('migrates on first use, records the version, and migrates once', async () => {
    const store = open();
    await store.append('s1', appended(textMessage('m1', 'hi')));
    expect(await store.migrate()).toStrictEqual({ applied: [1, 2], version: LATEST_SCHEMA_VERSION });
    const again = await open().migrate();
    expect(again).toStrictEqual({ applied: [], version: LATEST_SCHEMA_VERSION });
    const rows = await store.pool.query<{ version: number }>(
      `SELECT version FROM "${schema}".migrations ORDER BY version`,
    );
    expect(rows.rows.map((row) => row.version)).toStrictEqual([1, 2]);
  });

  it('refuses a schema newer than the code with CTXHOST_STORE_VERSION', async () => {
    const store = open();
    await store.migrate();
    await store.pool.query(`INSERT INTO "${schema}".migrations (version, name) VALUES (999, 'from the future')`);
    const error = await open()
      .read('s1')
      .catch((caught: unknown) => caught);
    expect(CtxhostError.hasCode(error, POSTGRES_STORE_ERROR_CODES.schemaTooNew)).toBe(true);
    expect((error as Error).message).toContain('version 999');
  });

  it('shares one log between stores: seqs stay contiguous, a retried event id is not duplicated', async () => {
    const [left, right] = [open(), open()];
    await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        (index % 2 === 0 ? left : right).append('shared', appended(textMessage(`m${index}`, `t${index}`)), {
          eventId: `e${index % 10}`,
        }),
      ),
    );
    const events = await left.read('shared');
    expect(events.map((event) => event.seq)).toStrictEqual(Array.from({ length: 10 }, (_, index) => index + 1));
    expect(new Set(events.map((event) => event.eventId)).size).toBe(10);
  });

  it('keeps strings PostgreSQL text cannot hold raw (NUL, lone surrogates) and large numbers exactly', async () => {
    const store = open();
    const message = {
      id: 'm1',
      role: 'tool' as const,
      parts: [{ id: 'p', type: 'text' as const, text: 'a\u0000b\ud800c 🙂' }],
      meta: { big: 12345678901234568, tiny: 1e-300 },
    };
    await store.append('s1', { type: 'message.appended', message });
    const [event] = await open().read('s1');
    expect(event?.type === 'message.appended' ? event.message : undefined).toStrictEqual(message);
  });

  it('tells subscribers about deletes and compactions, marking another store’s as remote', async () => {
    const [local, other] = [open(), open()];
    const heard: unknown[] = [];
    await local.subscribe((notification) => {
      heard.push(notification);
    });
    const report = {
      engine: 'test',
      reason: 'manual' as const,
      tokensBefore: 9,
      tokensAfter: 1,
      messagesBefore: 3,
      messagesAfter: 1,
    };
    await other.append('s1', { type: 'compaction.applied', projection: [textMessage('sum', 'summary')], report });
    await other.delete('s1');
    await local.delete('s2');
    await waitFor(() => heard.length >= 3);
    expect(heard).toStrictEqual([
      { type: 'compaction.completed', sessionId: 's1', seq: 1, report, remote: true },
      { type: 'session.deleted', sessionId: 's1', remote: true },
      { type: 'session.deleted', sessionId: 's2', remote: false },
    ]);
  });

  it('fails with CTXHOST_POSTGRES_UNREACHABLE naming the operation when the server is unreachable', async () => {
    const store = createPostgresStore({ url: 'postgres://postgres@127.0.0.1:1/none', schema });
    stores.push(store);
    const error = await store.read('s1').catch((caught: unknown) => caught);
    expect(CtxhostError.isInstance(error) && error.code).toBe(POSTGRES_STORE_ERROR_CODES.unreachable);
    expect((error as Error).message).toContain('read session "s1" failed');
    expect((error as Error).message).toContain('check store.url or DATABASE_URL');
  });

  it('rejects a schema name that is not a plain identifier, and a missing URL', () => {
    expect(() => createPostgresStore({ url: testDatabaseUrl(), schema: 'x"; drop' })).toThrow(/not a plain name/);
    const saved = process.env.DATABASE_URL;
    delete process.env.DATABASE_URL;
    try {
      expect(() => createPostgresStore({})).toThrow(/DATABASE_URL/);
    } finally {
      if (saved !== undefined) process.env.DATABASE_URL = saved;
    }
  });

  it('rejects calls after close with CTXHOST_POSTGRES_STORE_CLOSED and leaves a pool it was given open', async () => {
    const pool = createPgPool({ connectionString: testDatabaseUrl(), max: 2 });
    const store = createPostgresStore({ pool, schema });
    await store.append('s1', appended(textMessage('m1', 'x')));
    await store.close();
    const error = await store.read('s1').catch((caught: unknown) => caught);
    expect(CtxhostError.hasCode(error, POSTGRES_STORE_ERROR_CODES.storeClosed)).toBe(true);
    expect((await pool.query('SELECT 1 AS one')).rows).toStrictEqual([{ one: 1 }]);
    await pool.end();
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 500 && !condition(); attempt += 1)
    await new Promise((resolve) => setTimeout(resolve, 20));
}
