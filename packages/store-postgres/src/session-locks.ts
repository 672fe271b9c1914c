import { AsyncLocalStorage } from 'node:async_hooks';
import { createSessionMutex, type SessionMutex } from '@ctxhost/core';
import type { Pool, PoolClient } from 'pg';
import { POSTGRES_STORE_ERROR_CODES, PostgresStoreError } from './errors.js';
import { messageOf, pgFailureKind } from './pg-failure.js';
import { connectWatched, type WatchedClient } from './pooled-client.js';
import type { PostgresStoreTimeouts } from './store-options.js';

/** The connection a `withSessionLock` section holds; store calls inside the section run on it, one at a time. */
interface HeldConnection {
  sessionId: string;
  watched: WatchedClient;
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
 * Store calls made inside a section reuse its connection. Waiting for a lock
 * another worker holds is bounded by `timeouts.lockMs`; a section whose
 * connection breaks has lost its lock, and its store calls say so.
 */
export interface SessionLocks {
  withSessionLock<T>(sessionId: string, fn: () => Promise<T>): Promise<T>;
  /** Runs `fn` on the section's connection when called inside one, else on a pooled connection; `what` names the call in errors. */
  withClient<T>(what: string, fn: (client: PoolClient) => Promise<T>): Promise<T>;
  /** True when called inside a locked section (its store calls must not be retried on another connection). */
  insideSection(): boolean;
}

/** The text hashed (`hashtextextended(key, 0)`) into a session's advisory lock key; pg_locks shows it split in classid/objid. */
export function sessionLockKey(schema: string, sessionId: string): string {
  return `ctxhost-session:${schema}:${sessionId}`;
}

/** Slack given to the client-side deadline over the server-side timeout, so the server's cleaner error normally wins. */
const CLIENT_DEADLINE_SLACK_MS = 2_000;
const slackFor = (ms: number) => Math.min(CLIENT_DEADLINE_SLACK_MS, Math.ceil(ms / 4));

export function createSessionLocks(pool: Pool, schema: string, timeouts: PostgresStoreTimeouts): SessionLocks {
  const heldConnection = new AsyncLocalStorage<HeldConnection>();
  const mutexes = new Map<string, { mutex: SessionMutex; users: number }>();
  const lockKey = (sessionId: string) => sessionLockKey(schema, sessionId);
  const statementDeadline = timeouts.statementMs + slackFor(timeouts.statementMs);

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

  async function lock(watched: WatchedClient, sessionId: string): Promise<void> {
    const { client } = watched;
    const waitDeadline = timeouts.lockMs + slackFor(timeouts.lockMs);
    try {
      await watched.within(
        'set the lock wait',
        statementDeadline,
        client.query(`SELECT set_config('lock_timeout', $1, false), set_config('statement_timeout', $2, false)`, [
          String(timeouts.lockMs),
          String(waitDeadline),
        ]),
      );
      await watched.within(
        `wait for the lock of session "${sessionId}"`,
        waitDeadline + slackFor(timeouts.lockMs),
        client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [lockKey(sessionId)]),
      );
      await watched.within(
        'reset the lock wait',
        statementDeadline,
        client.query('RESET lock_timeout; RESET statement_timeout'),
      );
    } catch (error) {
      if (pgFailureKind(error) === 'lock-timeout') {
        throw new PostgresStoreError(
          POSTGRES_STORE_ERROR_CODES.lockTimeout,
          `PostgreSQL store (schema "${schema}"): session "${sessionId}" stayed locked by another worker for more than ${timeouts.lockMs} ms (timeouts.lockMs); that worker may be stuck. Retry later, or find it in pg_locks (advisory lock on "${lockKey(sessionId)}")`,
          { cause: error },
        );
      }
      throw error;
    }
  }

  async function lockedSection<T>(sessionId: string, fn: () => Promise<T>): Promise<T> {
    const watched = await connectWatched(pool, timeouts.connectMs);
    try {
      await lock(watched, sessionId);
    } catch (error) {
      // Its lock settings were changed for the wait: never hand this connection to anyone else.
      watched.release(new Error(`lock not taken: ${messageOf(error)}`));
      throw error;
    }
    const held: HeldConnection = { sessionId, watched, released: false, tail: Promise.resolve() };
    try {
      return await heldConnection.run(held, fn);
    } finally {
      await held.tail.catch(() => undefined);
      held.released = true;
      await unlockAndRelease(watched, lockKey(sessionId), statementDeadline);
    }
  }

  function onHeldConnection<T>(held: HeldConnection, what: string, fn: (client: PoolClient) => Promise<T>): Promise<T> {
    const runOnHeld = () => {
      const broken = held.watched.broken;
      if (broken !== undefined) {
        return Promise.reject(
          new PostgresStoreError(
            POSTGRES_STORE_ERROR_CODES.lockLost,
            `PostgreSQL store (schema "${schema}"): ${what} failed: the connection holding the lock of session "${held.sessionId}" was lost (${messageOf(broken)}), so the lock is gone; end this locked section and take the lock again`,
            { cause: broken },
          ),
        );
      }
      return held.watched.within(what, statementDeadline, fn(held.watched.client));
    };
    const run = held.tail.then(runOnHeld, runOnHeld);
    held.tail = run.catch(() => undefined);
    return run;
  }

  return {
    withSessionLock(sessionId, fn) {
      // Re-entry: this context already holds the session's lock (and its connection).
      if (mutexes.get(sessionId)?.mutex.held === true) return fn();
      return withMutex(sessionId, () => lockedSection(sessionId, fn));
    },
    withClient(what, fn) {
      const held = heldConnection.getStore();
      if (held !== undefined && !held.released) return onHeldConnection(held, what, fn);
      return withPooledClient(what, fn);
    },
    insideSection() {
      const held = heldConnection.getStore();
      return held !== undefined && !held.released;
    },
  };

  async function withPooledClient<T>(what: string, fn: (client: PoolClient) => Promise<T>): Promise<T> {
    const watched = await connectWatched(pool, timeouts.connectMs);
    try {
      const result = await watched.within(what, statementDeadline, fn(watched.client));
      watched.release();
      return result;
    } catch (error) {
      watched.release(error);
      throw error;
    }
  }
}

async function unlockAndRelease(watched: WatchedClient, key: string, deadline: number): Promise<void> {
  try {
    if (watched.broken !== undefined) throw watched.broken;
    await watched.within(
      'release the session lock',
      deadline,
      watched.client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]),
    );
    watched.release();
  } catch (error) {
    // Destroying the connection ends the server session, which drops the lock.
    watched.release(new Error(`unlock failed: ${messageOf(error)}`));
  }
}
