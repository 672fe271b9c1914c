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
}

export const POSTGRES_STORE_DEFAULTS = { schema: 'ctxhost', maxConnections: 10 } as const;

export interface ResolvedPoolOptions {
  pool: Pool;
  ownsPool: boolean;
  schema: string;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,46}$/;

export function resolvePoolOptions(options: PostgresStoreOptions, environment: NodeJS.ProcessEnv = process.env): ResolvedPoolOptions {
  const schema = options.schema ?? POSTGRES_STORE_DEFAULTS.schema;
  if (!SCHEMA_NAME.test(schema)) {
    throw new PostgresStoreError(POSTGRES_STORE_ERROR_CODES.optionsInvalid, `PostgreSQL store schema "${schema}" is not a plain name; use lower-case letters, digits and "_" (at most 47), starting with a letter or "_"`);
  }
  if (options.pool !== undefined) return { pool: options.pool, ownsPool: false, schema };
  const url = options.url ?? environment.DATABASE_URL;
  if (url === undefined || url === '') {
    throw new PostgresStoreError(POSTGRES_STORE_ERROR_CODES.optionsInvalid, 'PostgreSQL store has no database: set store.url in the config (postgres://user@host:5432/db), DATABASE_URL, or pass `url` or `pool`');
  }
  const pool = createPgPool({ connectionString: url, max: options.maxConnections ?? POSTGRES_STORE_DEFAULTS.maxConnections });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return { pool, ownsPool: true, schema };
}

/** The schema name quoted for SQL (already checked to be a plain name). */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
