import { createPgClient } from '../../packages/store-postgres/src/pg-driver.js';
import { startTcpProxy, targetOf } from '../../packages/store-postgres/src/tcp-proxy.test-helper.js';
import {
  dropSchema,
  testDatabaseUrl,
  uniqueSchemaName,
} from '../../packages/store-postgres/src/test-database.test-helper.js';
import { createPostgresStore, type PostgresStore } from '@ctxhost/store-postgres';
import { CtxhostError, type StoreEvent } from '@ctxhost/core';

export interface AppendTally {
  acknowledged: number;
  stored: number;
  lost: number;
  duplicated: number;
  failedCalls: Record<string, number>;
  crashes: number;
  slowestCallMs: number;
}

const event = (id: string): StoreEvent => ({
  type: 'message.appended',
  message: { id, role: 'user', parts: [{ id: `${id}:0`, type: 'text', text: `chaos ${id}` }] },
});

/** Appends with retries by event id (as the host does) and records what was acknowledged. */
async function appendLoop(
  store: PostgresStore,
  sessionId: string,
  prefix: string,
  until: number,
  acknowledged: Set<string>,
  tally: AppendTally,
): Promise<void> {
  for (let index = 0; Date.now() < until; index += 1) {
    const id = `${prefix}-${index}`;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const started = Date.now();
      try {
        await store.append(sessionId, event(id), { eventId: id });
        acknowledged.add(id);
        break;
      } catch (error) {
        const code = CtxhostError.isInstance(error) ? error.code : `raw ${(error as Error).name}`;
        tally.failedCalls[code] = (tally.failedCalls[code] ?? 0) + 1;
      } finally {
        tally.slowestCallMs = Math.max(tally.slowestCallMs, Date.now() - started);
      }
    }
  }
}

async function countStored(
  store: PostgresStore,
  sessions: string[],
  acknowledged: Set<string>,
  tally: AppendTally,
): Promise<void> {
  const seen = new Map<string, number>();
  for (const sessionId of sessions) {
    for (const stored of await store.read(sessionId)) {
      if (stored.type !== 'message.appended') continue;
      seen.set(stored.message.id, (seen.get(stored.message.id) ?? 0) + 1);
    }
  }
  tally.acknowledged = acknowledged.size;
  tally.stored = seen.size;
  tally.lost = [...acknowledged].filter((id) => !seen.has(id)).length;
  tally.duplicated = [...seen.values()].filter((count) => count > 1).length;
}

function newTally(): AppendTally {
  return { acknowledged: 0, stored: 0, lost: 0, duplicated: 0, failedCalls: {}, crashes: 0, slowestCallMs: 0 };
}

/** Several stores append to a few sessions while a second connection terminates their backends every `everyMs`. */
export async function pgTerminations(options: {
  seconds: number;
  everyMs: number;
  stores: number;
}): Promise<AppendTally & { terminations: number }> {
  const schema = uniqueSchemaName('chaos_term');
  const stores = Array.from({ length: options.stores }, () =>
    createPostgresStore({ url: testDatabaseUrl(), schema, maxConnections: 3 }),
  );
  const tally = newTally();
  const crashes = (error: unknown) => {
    tally.crashes += 1;
    console.error('chaos: uncaught', error);
  };
  process.on('uncaughtException', crashes);
  const admin = createPgClient(testDatabaseUrl());
  admin.on('error', () => undefined);
  await admin.connect();
  let terminations = 0;
  try {
    await stores[0]!.migrate();
    const acknowledged = new Set<string>();
    const until = Date.now() + options.seconds * 1000;
    const killer = (async () => {
      while (Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, options.everyMs));
        const killed = await admin.query<{ ok: boolean }>(
          `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = 'ctxhost-store' AND query LIKE $1 AND pid <> pg_backend_pid()`,
          [`%${schema}%`],
        );
        terminations += killed.rows.filter((row) => row.ok).length;
      }
    })();
    const sessions = ['t0', 't1', 't2'];
    await Promise.all(
      stores.flatMap((store, storeIndex) =>
        sessions.map((sessionId) =>
          appendLoop(store, sessionId, `s${storeIndex}-${sessionId}`, until, acknowledged, tally),
        ),
      ),
    );
    await killer;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const reader = createPostgresStore({ url: testDatabaseUrl(), schema });
    await countStored(reader, sessions, acknowledged, tally);
    await reader.close();
  } finally {
    process.off('uncaughtException', crashes);
    await Promise.all(stores.map((store) => store.close()));
    await admin.end();
    await dropSchema(schema);
  }
  return { ...tally, terminations };
}

/** Appends through a TCP proxy that stops forwarding for `partitionSeconds`, then heals; reports the longest any call waited and what close() took. */
export async function pgPartition(options: {
  seconds: number;
  partitionSeconds: number;
  statementMs: number;
  connectMs: number;
}): Promise<AppendTally & { closeMs: number; boundMs: number }> {
  const schema = uniqueSchemaName('chaos_part');
  const proxy = await startTcpProxy(targetOf(testDatabaseUrl()));
  const timeouts = { statementMs: options.statementMs, connectMs: options.connectMs, closeMs: 1_000 };
  const store = createPostgresStore({ url: proxy.urlFor(testDatabaseUrl()), schema, maxConnections: 3, timeouts });
  const tally = newTally();
  const acknowledged = new Set<string>();
  let closeMs: number;
  try {
    await store.migrate();
    const until = Date.now() + options.seconds * 1000;
    const partition = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      proxy.partition();
      await new Promise((resolve) => setTimeout(resolve, options.partitionSeconds * 1000));
      proxy.heal();
    })();
    await Promise.all(
      ['p0', 'p1'].map((sessionId) => appendLoop(store, sessionId, sessionId, until, acknowledged, tally)),
    );
    await partition;
    const reader = createPostgresStore({ url: testDatabaseUrl(), schema });
    await countStored(reader, ['p0', 'p1'], acknowledged, tally);
    await reader.close();
    proxy.partition();
    const started = Date.now();
    await store.close();
    closeMs = Date.now() - started;
  } finally {
    await proxy.close();
    await dropSchema(schema);
  }
  // A call: connect + statement (+ slack), retried once after a dropped connection.
  return {
    ...tally,
    closeMs,
    boundMs: 2 * (options.connectMs + options.statementMs + Math.min(2_000, options.statementMs / 4)),
  };
}
