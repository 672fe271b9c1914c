import { AsyncLocalStorage } from 'node:async_hooks';
import { createSessionMutex, type SessionMutex } from '@ctxhost/core';
import type { Pool, PoolClient } from 'pg';

/** The connection a `withSessionLock` section holds; store calls inside the section run on it, one at a time. */
interface HeldConnection {
  client: PoolClient;
  released: boolean;
  tail: Promise<unknown>;
}

/**
 * Per-session locks across processes, on PostgreSQL session advisory locks,
 * and the routing of queries to a connection.
 *
 * A lock is taken with `pg_advisory_lock` on a connection checked out for the
 * section and kept for it: if the process dies, the server closes the
 * connection and the lock is gone with it. In one process, callers of a
 * session queue on an in-process mutex first (one connection per locked
 * session, re-entrant within a section), so waiters never drain the pool.
 * Store calls made inside a section reuse its connection.
 */
export interface SessionLocks {
  withSessionLock<T>(sessionId: string, fn: () => Promise<T>): Promise<T>;
  /** Runs `fn` on the section's connection when called inside one, else on a pooled connection. */
  withClient<T>(fn: (client: PoolClient) => Promise<T>): Promise<T>;
}

/** The text hashed (`hashtextextended(key, 0)`) into a session's advisory lock key; pg_locks shows it split in classid/objid. */
export function sessionLockKey(schema: string, sessionId: string): string {
  return `ctxhost-session:${schema}:${sessionId}`;
}

export function createSessionLocks(pool: Pool, schema: string): SessionLocks {
  const heldConnection = new AsyncLocalStorage<HeldConnection>();
  const mutexes = new Map<string, { mutex: SessionMutex; users: number }>();
  const lockKey = (sessionId: string) => sessionLockKey(schema, sessionId);

  async function withMutex<T>(sessionId: string, fn: () => Promise<T>): Promise<T> {
    const entry = mutexes.get(sessionId) ?? { mutex: createSessionMutex(), users: 0 };
    mutexes.set(sessionId, entry);
    entry.users += 1;
    try {
      return await entry.mutex.run(fn);
    } finally {
      entry.users -= 1;
      if (entry.users === 0) mutexes.delete(sessionId);
    }
  }

  async function lockedSection<T>(sessionId: string, fn: () => Promise<T>): Promise<T> {
    const client = await pool.connect();
    // A checked-out client has no 'error' listener: without one, the server dropping this
    // connection mid-section would crash the process. The lock is gone with it; the
    // section's next query fails, and the release below destroys the client.
    const onConnectionError = () => undefined;
    client.on('error', onConnectionError);
    try {
      await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [lockKey(sessionId)]);
    } catch (error) {
      client.removeListener('error', onConnectionError);
      client.release(true);
      throw error;
    }
    const held: HeldConnection = { client, released: false, tail: Promise.resolve() };
    try {
      return await heldConnection.run(held, fn);
    } finally {
      await held.tail.catch(() => undefined);
      held.released = true;
      await unlockAndRelease(client, lockKey(sessionId), onConnectionError);
    }
  }

  return {
    withSessionLock(sessionId, fn) {
      // Re-entry: this context already holds the session's lock (and its connection).
      if (mutexes.get(sessionId)?.mutex.held === true) return fn();
      return withMutex(sessionId, () => lockedSection(sessionId, fn));
    },
    async withClient(fn) {
      const held = heldConnection.getStore();
      if (held !== undefined && !held.released) {
        const run = held.tail.then(() => fn(held.client), () => fn(held.client));
        held.tail = run.catch(() => undefined);
        return run;
      }
      return withPooledClient(pool, fn);
    },
  };
}

async function unlockAndRelease(client: PoolClient, key: string, onConnectionError: () => void): Promise<void> {
  try {
    await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]);
    client.removeListener('error', onConnectionError);
    client.release();
  } catch (error) {
    // The connection is broken: destroying it ends the server session, which drops the lock.
    client.release(error as Error);
  }
}

async function withPooledClient<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    const result = await fn(client);
    client.release();
    return result;
  } catch (error) {
    client.release(isServerError(error) ? undefined : (error as Error));
    throw error;
  }
}

/** A server-reported error (SQLSTATE code) leaves the connection usable; anything else may not. */
function isServerError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}
