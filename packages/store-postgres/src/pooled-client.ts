import type { Pool, PoolClient } from 'pg';
import { leavesConnectionUsable, PgConnectError, PgDeadlineError } from './pg-failure.js';

/**
 * A checked-out connection, watched: `pg` emits `'error'` on a client whose
 * server ended the connection, and a checked-out client has no listener of
 * its own (the pool removes its idle listener on checkout), so without one
 * the process would crash. The watcher records the error instead; a broken
 * or timed-out client is destroyed on release, never returned to the pool.
 */
export interface WatchedClient {
  readonly client: PoolClient;
  /** The error that broke the connection, once it broke. */
  readonly broken: Error | undefined;
  /** Runs a query batch with a deadline; past it the connection is destroyed and the call fails. */
  within<T>(what: string, ms: number, work: Promise<T>): Promise<T>;
  /** Back to the pool when healthy (and `error` says nothing about it), destroyed otherwise. */
  release(error?: unknown): void;
}

export async function connectWatched(pool: Pool, connectMs: number): Promise<WatchedClient> {
  const client = await connectWithin(pool, connectMs);
  let broken: Error | undefined;
  let released = false;
  const onError = (error: Error) => {
    broken ??= error;
  };
  client.on('error', onError);
  const destroy = (reason: Error) => {
    broken ??= reason;
    destroySocket(client);
  };
  return {
    client,
    get broken() {
      return broken;
    },
    async within(what, ms, work) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const error = new PgDeadlineError(what, ms);
          destroy(error);
          reject(error);
        }, ms);
      });
      try {
        return await Promise.race([work, deadline]);
      } finally {
        clearTimeout(timer);
        // The losing side settles later on a destroyed connection: nobody is waiting for it.
        work.catch(() => undefined);
      }
    },
    release(error) {
      if (released) return;
      released = true;
      if (broken === undefined && (error === undefined || leavesConnectionUsable(error))) {
        client.removeListener('error', onError);
        client.release();
        return;
      }
      // The no-op listener stays: a destroyed client may still emit its last error.
      destroySocket(client);
      client.release(broken ?? (error instanceof Error ? error : new Error(String(error))));
    },
  };
}

/** `pool.connect()` bounded by `connectMs`, also for a pool given by the caller (which may have no connection timeout). */
async function connectWithin(pool: Pool, connectMs: number): Promise<PoolClient> {
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const connecting = pool.connect();
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reject(new PgConnectError(new Error(`no connection within ${connectMs} ms`)));
    }, connectMs + 250);
  });
  try {
    return await Promise.race([connecting, deadline]);
  } catch (error) {
    throw error instanceof PgConnectError ? error : new PgConnectError(error);
  } finally {
    clearTimeout(timer);
    if (timedOut)
      void connecting.then(
        (late) => late.release(true),
        () => undefined,
      );
  }
}

/** Ends the TCP connection at once (a partitioned server would never answer a polite Terminate). */
export function destroySocket(client: PoolClient): void {
  (client as unknown as { connection?: { stream?: { destroy?(): void } } }).connection?.stream?.destroy?.();
}
