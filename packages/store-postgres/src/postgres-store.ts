import { randomUUID } from 'node:crypto';
import {
  assertCacheEntry,
  assertExpectedSeq,
  assertStoreId,
  type CacheEntry,
  type Part,
  type SessionStore,
  type StoredEvent,
  type StoreEvent,
} from '@ctxhost/core';
import type { Pool, PoolClient } from 'pg';
import { POSTGRES_STORE_ERROR_CODES, PostgresStoreError } from './errors.js';
import { runMigrations, type MigrationResult } from './migrations.js';
import { partsFirstSeen } from './parts-first-seen.js';
import { describePgFailure, isRetryable } from './describe-pg-failure.js';
import { destroySocket } from './pooled-client.js';
import { createSessionLocks } from './session-locks.js';
import {
  createNotificationListener,
  NOTIFY_PAYLOAD_LIMIT,
  type NotificationListener,
  type NotificationPayload,
  type PostgresStoreListener,
} from './store-notifications.js';
import {
  quoteIdentifier,
  resolvePoolOptions,
  type PostgresStoreOptions,
  type PostgresStoreTimeouts,
} from './store-options.js';

export interface PostgresStore extends SessionStore {
  readonly kind: 'postgres';
  readonly schema: string;
  readonly pool: Pool;
  /** This store instance's id, the `origin` of the notifications it sends. */
  readonly instanceId: string;
  /** The bounds on every wait, defaults applied. */
  readonly timeouts: PostgresStoreTimeouts;
  /** Applies missing migrations now (otherwise done on first use). */
  migrate(): Promise<MigrationResult>;
  /**
   * Runs `fn` holding the session's lock across every process using this
   * database and schema (a PostgreSQL advisory lock tied to a connection:
   * released when `fn` settles, or when the process dies). Re-entrant.
   */
  withSessionLock<T>(sessionId: string, fn: () => Promise<T>): Promise<T>;
  /** `session.deleted` and `compaction.completed` from every worker (this one's with `remote: false`); resolves once listening. Returns the unsubscribe. */
  subscribe(listener: PostgresStoreListener): Promise<() => Promise<void>>;
}

/**
 * A SessionStore on PostgreSQL: every event is a row (its JSON kept as text,
 * byte for byte), seqs come from a per-session counter row locked by the
 * append's transaction, so appends from any number of processes get
 * contiguous seqs; an event id is unique per session, so a retried append
 * returns the first one. Part originals are a table filled in the same
 * transaction. Deletes and compactions are NOTIFYed on `<schema>_events`.
 */
export function createPostgresStore(options: PostgresStoreOptions = {}): PostgresStore {
  const { pool, ownsPool, schema, timeouts } = resolvePoolOptions(options);
  const table = (name: string) => `${quoteIdentifier(schema)}.${name}`;
  const channel = `${schema}_events`;
  const instanceId = randomUUID();
  const locks = createSessionLocks(pool, schema, timeouts);
  const clients = trackClients(pool);
  const listeners = new Set<PostgresStoreListener>();
  const inFlight = new Set<Promise<unknown>>();
  let ready: Promise<MigrationResult> | undefined;
  let listener: Promise<NotificationListener> | undefined;
  let closed = false;

  function migrate(): Promise<MigrationResult> {
    ready ??= runMigrations(pool, schema, timeouts.connectMs);
    ready.catch(() => (ready = undefined));
    return ready;
  }

  /**
   * Runs one store operation: checks the store is open, migrates first, tracks
   * it for `close()`, names it in errors. A connection lost under it is
   * retried once on a fresh connection (every call is idempotent: an append
   * carries its event id), except inside a locked section, whose lock went
   * with the connection.
   */
  function operation<T>(what: string, fn: (client: PoolClient) => Promise<T>): Promise<T> {
    if (closed)
      return Promise.reject(
        new PostgresStoreError(
          POSTGRES_STORE_ERROR_CODES.storeClosed,
          `PostgreSQL store: ${what} after close(); create a new store`,
        ),
      );
    const attempt = () => migrate().then(() => locks.withClient(what, fn));
    let retried = false;
    const run = attempt()
      .catch((error: unknown) => {
        if (!isRetryable(error) || locks.insideSection()) throw error;
        retried = true;
        return attempt();
      })
      .catch((error: unknown) => {
        throw describePgFailure(error, { schema, what, retried, timeouts });
      });
    inFlight.add(run);
    void run.finally(() => inFlight.delete(run)).catch(() => undefined);
    return run;
  }

  async function transaction<T>(client: PoolClient, fn: () => Promise<T>): Promise<T> {
    await client.query('BEGIN');
    try {
      const result = await fn();
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  async function notify(client: PoolClient, payload: Omit<NotificationPayload, 'origin'>): Promise<void> {
    let text = JSON.stringify({ ...payload, origin: instanceId });
    if (Buffer.byteLength(text) > NOTIFY_PAYLOAD_LIMIT)
      text = JSON.stringify({ ...payload, report: undefined, origin: instanceId });
    await client.query('SELECT pg_notify($1, $2)', [channel, text]);
  }

  async function appendEvent(
    client: PoolClient,
    sessionId: string,
    event: StoreEvent,
    eventId: string,
    expectedSeq: number | undefined,
  ): Promise<StoredEvent> {
    const counter = await client.query<{ last_seq: number }>(
      `INSERT INTO ${table('sessions')} AS s (session_id, last_seq) VALUES ($1, 1)
       ON CONFLICT (session_id) DO UPDATE SET last_seq = s.last_seq + 1 RETURNING last_seq`,
      [sessionId],
    );
    const existing = await client.query<{ body: string }>(
      `SELECT body FROM ${table('events')} WHERE session_id = $1 AND event_id = $2`,
      [sessionId, eventId],
    );
    if (existing.rows[0] !== undefined) throw new ExistingEvent(JSON.parse(existing.rows[0].body) as StoredEvent);
    // The counter row is locked by this transaction: no other append can slip in between the check and the insert.
    assertExpectedSeq(sessionId, expectedSeq, counter.rows[0]!.last_seq - 1);
    const stored = { ...structuredClone(event), seq: counter.rows[0]!.last_seq, at: new Date().toISOString(), eventId };
    await client.query(
      `INSERT INTO ${table('events')} (session_id, seq, event_id, type, at, body) VALUES ($1, $2, $3, $4, $5, $6)`,
      [sessionId, stored.seq, eventId, stored.type, stored.at, JSON.stringify(stored)],
    );
    const parts = partsFirstSeen(event);
    if (parts.length > 0) {
      await client.query(
        `INSERT INTO ${table('part_originals')} (session_id, part_id, part) SELECT $1, id, part FROM unnest($2::text[], $3::text[]) AS p(id, part) ON CONFLICT DO NOTHING`,
        [sessionId, parts.map((part) => part.id), parts.map((part) => JSON.stringify(part))],
      );
    }
    if (event.type === 'compaction.applied')
      await notify(client, { type: 'compaction.completed', sessionId, seq: stored.seq, report: event.report });
    return stored;
  }

  async function deliver(payload: NotificationPayload): Promise<void> {
    const remote = payload.origin !== instanceId;
    if (payload.type === 'session.deleted')
      return broadcast({ type: 'session.deleted', sessionId: payload.sessionId, remote });
    if (payload.report !== undefined && payload.seq !== undefined) {
      return broadcast({
        type: 'compaction.completed',
        sessionId: payload.sessionId,
        seq: payload.seq,
        report: payload.report,
        remote,
      });
    }
    const rows = await pool.query<{ body: string }>(
      `SELECT body FROM ${table('events')} WHERE session_id = $1 AND seq = $2`,
      [payload.sessionId, payload.seq],
    );
    const event = rows.rows[0] === undefined ? undefined : (JSON.parse(rows.rows[0].body) as StoredEvent);
    if (event?.type !== 'compaction.applied') return;
    await broadcast({
      type: 'compaction.completed',
      sessionId: payload.sessionId,
      seq: event.seq,
      report: event.report,
      remote,
    });
  }

  async function broadcast(notification: Parameters<PostgresStoreListener>[0]): Promise<void> {
    for (const subscriber of [...listeners]) {
      try {
        await subscriber(structuredClone(notification));
      } catch {
        // A subscriber's failure is its own; the others still hear the event.
      }
    }
  }

  const store: PostgresStore = {
    kind: 'postgres',
    schema,
    pool,
    instanceId,
    migrate,
    withSessionLock: (sessionId, fn) => migrate().then(() => locks.withSessionLock(sessionId, fn)),
    timeouts,
    append(sessionId, event, appendOptions) {
      const invalid = checkIds(sessionId, appendOptions?.eventId);
      if (invalid !== undefined) return invalid;
      const eventId = appendOptions?.eventId ?? randomUUID();
      return operation(`append to session "${sessionId}"`, (client) =>
        transaction(client, () => appendEvent(client, sessionId, event, eventId, appendOptions?.expectedSeq)).catch(
          (error: unknown) => {
            if (error instanceof ExistingEvent) return error.event;
            throw error;
          },
        ),
      );
    },
    read(sessionId) {
      const invalid = checkIds(sessionId);
      if (invalid !== undefined) return invalid;
      return operation(`read session "${sessionId}"`, async (client) => {
        const result = await client.query<{ body: string }>(
          `SELECT body FROM ${table('events')} WHERE session_id = $1 ORDER BY seq`,
          [sessionId],
        );
        return result.rows.map((row) => JSON.parse(row.body) as StoredEvent);
      });
    },
    original(sessionId, partId) {
      const invalid = checkIds(sessionId);
      if (invalid !== undefined) return invalid;
      return operation(`read original part "${partId}" of session "${sessionId}"`, async (client) => {
        const result = await client.query<{ part: string }>(
          `SELECT part FROM ${table('part_originals')} WHERE session_id = $1 AND part_id = $2`,
          [sessionId, partId],
        );
        return result.rows[0] === undefined ? undefined : (JSON.parse(result.rows[0].part) as Part);
      });
    },
    putEntry(entry) {
      try {
        assertCacheEntry(entry);
      } catch (error) {
        return Promise.reject(error);
      }
      return operation(`write cache entry "${entry.key}"`, async (client) => {
        // First writer wins: a second write of the key changes nothing, and both read back the stored row.
        await client.query(
          `INSERT INTO ${table('entries')} (key, index_key, covered_length, covered_hash, settings, body) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (key) DO NOTHING`,
          [entry.key, entry.index, entry.coveredLength, entry.coveredHash, entry.settings, entry.body],
        );
        return (await readEntry(client, entry.key)) ?? entry;
      });
    },
    getEntry(key) {
      return operation(`read cache entry "${key}"`, (client) => readEntry(client, key));
    },
    entryHeads(index) {
      return operation(`list cache entries of "${index}"`, async (client) => {
        const result = await client.query<{
          key: string;
          covered_length: number;
          covered_hash: string;
          settings: string;
        }>(`SELECT key, covered_length, covered_hash, settings FROM ${table('entries')} WHERE index_key = $1`, [index]);
        return result.rows.map((row) => ({
          key: row.key,
          coveredLength: row.covered_length,
          coveredHash: row.covered_hash,
          settings: row.settings,
        }));
      });
    },
    list() {
      return operation('list sessions', async (client) => {
        const result = await client.query<{ session_id: string }>(`SELECT session_id FROM ${table('sessions')}`);
        return result.rows.map((row) => row.session_id).sort();
      });
    },
    delete(sessionId) {
      const invalid = checkIds(sessionId);
      if (invalid !== undefined) return invalid;
      return operation(`delete session "${sessionId}"`, (client) =>
        transaction(client, async () => {
          await client.query(`DELETE FROM ${table('sessions')} WHERE session_id = $1`, [sessionId]);
          await client.query(`DELETE FROM ${table('events')} WHERE session_id = $1`, [sessionId]);
          await client.query(`DELETE FROM ${table('part_originals')} WHERE session_id = $1`, [sessionId]);
          await notify(client, { type: 'session.deleted', sessionId });
        }),
      );
    },
    async subscribe(subscriber) {
      if (closed)
        throw new PostgresStoreError(
          POSTGRES_STORE_ERROR_CODES.storeClosed,
          'PostgreSQL store: subscribe after close(); create a new store',
        );
      listeners.add(subscriber);
      listener ??= startListener();
      await listener;
      return async () => {
        listeners.delete(subscriber);
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.allSettled([...inFlight]);
      const ended = (async () => {
        const active = await listener?.catch(() => undefined);
        await active?.stop();
        if (ownsPool) await pool.end();
      })();
      // A partitioned server never answers the goodbye: past closeMs the sockets are destroyed.
      if (!(await settlesWithin(ended, timeouts.closeMs))) {
        for (const client of clients) destroySocket(client);
        await settlesWithin(ended, timeouts.closeMs);
      }
    },
  };

  async function readEntry(client: PoolClient, key: string): Promise<CacheEntry | undefined> {
    const result = await client.query<{
      key: string;
      index_key: string;
      covered_length: number;
      covered_hash: string;
      settings: string;
      body: string;
    }>(`SELECT key, index_key, covered_length, covered_hash, settings, body FROM ${table('entries')} WHERE key = $1`, [
      key,
    ]);
    const row = result.rows[0];
    return row === undefined
      ? undefined
      : {
          key: row.key,
          index: row.index_key,
          coveredLength: row.covered_length,
          coveredHash: row.covered_hash,
          settings: row.settings,
          body: row.body,
        };
  }

  async function startListener(): Promise<NotificationListener> {
    const created = createNotificationListener({ pool, channel, onPayload: deliver });
    try {
      await created.start();
      return created;
    } catch (error) {
      listener = undefined;
      throw new PostgresStoreError(
        POSTGRES_STORE_ERROR_CODES.queryFailed,
        `PostgreSQL store: could not LISTEN on "${channel}": ${(error as Error).message}`,
        { cause: error },
      );
    }
  }

  return store;
}

/** An id problem as a rejected promise (store calls never throw synchronously). */
function checkIds(sessionId: string, eventId?: string): Promise<never> | undefined {
  try {
    assertStoreId('session id', sessionId);
    if (eventId !== undefined) assertStoreId('event id', eventId);
    return undefined;
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

/** Every connection the pool opened and has not removed, so `close()` can cut them when the server is gone. */
function trackClients(pool: Pool): Set<PoolClient> {
  const clients = new Set<PoolClient>();
  pool.on('connect', (client) => clients.add(client));
  pool.on('remove', (client) => clients.delete(client));
  return clients;
}

async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = work.then(
    () => true as const,
    () => true as const,
  );
  try {
    return await Promise.race([settled, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Thrown inside the append transaction to roll back the seq taken when the event id is already stored. */
class ExistingEvent extends Error {
  constructor(readonly event: StoredEvent) {
    super('event already stored');
  }
}
