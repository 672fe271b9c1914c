import type { Pool } from 'pg';
import { POSTGRES_STORE_ERROR_CODES, PostgresStoreError } from './errors.js';
import { createPgPool } from './pg-driver.js';

/** Where the store connects: a URL (a pool is made and owned by the store) or a pool of yours (left open on close). */
export interface PostgresStoreOptions {
  /** `postgres://user@host:5432/db`; default `DATABASE_URL`. Ignored when `pool` is given. */
  url?: string;
  /** A pool you own; the store never ends it. */
  pool?: Pool;
  /** The schema holding the tables (default `ctxhost`): lower-case letters, digits, `_`. */
  schema?: string;
  /** Connections of the pool the store makes (default 10). */
  maxConnections?: number;
  /** Bounds on every wait (ms); see POSTGRES_STORE_DEFAULTS.timeouts. */
  timeouts?: Partial<PostgresStoreTimeouts>;
}

/** How long the store waits before it gives up (milliseconds). */
export interface PostgresStoreTimeouts {
  /** Opening a connection (or waiting for a free one in the pool). */
  connectMs: number;
  /** One store call's queries: enforced by the server (`statement_timeout`, `idle_in_transaction_session_timeout`) and, for a server that never answers, by the client, which then destroys the connection. */
  statementMs: number;
  /** Waiting for a session lock another worker holds (`withSessionLock`). */
  lockMs: number;
  /** `close()` waiting for the pool's connections to end before it destroys them. */
  closeMs: number;
}

export const POSTGRES_STORE_DEFAULTS = {
  schema: 'ctxhost',
  maxConnections: 10,
  timeouts: { connectMs: 10_000, statementMs: 30_000, lockMs: 120_000, closeMs: 5_000 } satisfies PostgresStoreTimeouts,
} as const;

export interface ResolvedPoolOptions {
  pool: Pool;
  ownsPool: boolean;
  schema: string;
  timeouts: PostgresStoreTimeouts;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,46}$/;

export function resolvePoolOptions(
  options: PostgresStoreOptions,
  environment: NodeJS.ProcessEnv = process.env,
): ResolvedPoolOptions {
  const schema = options.schema ?? POSTGRES_STORE_DEFAULTS.schema;
  if (!SCHEMA_NAME.test(schema)) {
    throw new PostgresStoreError(
      POSTGRES_STORE_ERROR_CODES.optionsInvalid,
      `PostgreSQL store schema "${schema}" is not a plain name; use lower-case letters, digits and "_" (at most 47), starting with a letter or "_"`,
    );
  }
  const timeouts = resolveTimeouts(options.timeouts);
  if (options.pool !== undefined) return { pool: options.pool, ownsPool: false, schema, timeouts };
  const url = options.url ?? environment.DATABASE_URL;
  if (url === undefined || url === '') {
    throw new PostgresStoreError(
      POSTGRES_STORE_ERROR_CODES.optionsInvalid,
      'PostgreSQL store has no database: set store.url in the config (postgres://user@host:5432/db), DATABASE_URL, or pass `url` or `pool`',
    );
  }
  const pool = createPgPool({
    connectionString: url,
    max: options.maxConnections ?? POSTGRES_STORE_DEFAULTS.maxConnections,
    application_name: POSTGRES_APPLICATION_NAME,
    connectionTimeoutMillis: timeouts.connectMs,
    statement_timeout: timeouts.statementMs,
    // A worker frozen inside an append's transaction would hold the session's counter row forever.
    idle_in_transaction_session_timeout: timeouts.statementMs,
    keepAlive: true,
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return { pool, ownsPool: true, schema, timeouts };
}

/** The `application_name` of the store's connections (to find them in `pg_stat_activity`). */
export const POSTGRES_APPLICATION_NAME = 'ctxhost-store';

function resolveTimeouts(given: Partial<PostgresStoreTimeouts> = {}): PostgresStoreTimeouts {
  const timeouts = { ...POSTGRES_STORE_DEFAULTS.timeouts, ...given };
  for (const [key, value] of Object.entries(timeouts)) {
    if (!Number.isInteger(value) || value <= 0) {
      throw new PostgresStoreError(
        POSTGRES_STORE_ERROR_CODES.optionsInvalid,
        `PostgreSQL store option timeouts.${key} must be a whole number of milliseconds above 0, got ${String(value)}`,
      );
    }
  }
  return timeouts;
}

/** The schema name quoted for SQL (already checked to be a plain name). */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
