import type { Pool, PoolClient } from 'pg';
import { POSTGRES_STORE_ERROR_CODES, PostgresStoreError } from './errors.js';
import { connectWatched } from './pooled-client.js';
import { POSTGRES_STORE_DEFAULTS } from './store-options.js';
import { quoteIdentifier } from './store-options.js';

/** One schema change; `sql` receives the quoted schema name. Versions only ever grow. */
export interface Migration {
  version: number;
  name: string;
  sql(schema: string): string;
}

/** The store's schema history. Never edit an applied entry: add a new version. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'event log, sessions and part originals',
    sql: (schema) => `
      CREATE TABLE ${schema}.sessions (
        session_id text PRIMARY KEY,
        last_seq integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE ${schema}.events (
        session_id text NOT NULL,
        seq integer NOT NULL,
        event_id text NOT NULL,
        type text NOT NULL,
        at text NOT NULL,
        body text NOT NULL,
        PRIMARY KEY (session_id, seq),
        CONSTRAINT events_event_id_unique UNIQUE (session_id, event_id)
      );
      CREATE TABLE ${schema}.part_originals (
        session_id text NOT NULL,
        part_id text NOT NULL,
        part text NOT NULL,
        PRIMARY KEY (session_id, part_id)
      );`,
  },
  {
    version: 2,
    name: 'content-addressed entries (the compaction cache of the stateless path)',
    sql: (schema) => `
      CREATE TABLE ${schema}.entries (
        key text PRIMARY KEY,
        index_key text NOT NULL,
        covered_length integer NOT NULL,
        covered_hash text NOT NULL,
        settings text NOT NULL,
        body text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX entries_index_key ON ${schema}.entries (index_key);`,
  },
];

export const LATEST_SCHEMA_VERSION = Math.max(...MIGRATIONS.map((migration) => migration.version));

export interface MigrationResult {
  /** Versions applied by this call (empty when the schema was current). */
  applied: number[];
  version: number;
}

/**
 * Brings `schema` to the latest version: creates it and the `migrations` table
 * if needed, then applies each missing migration in order, all in one
 * transaction under an advisory lock, so concurrent workers migrate once.
 * A schema newer than this code is CTXHOST_STORE_VERSION.
 */
export async function runMigrations(
  pool: Pool,
  schemaName: string,
  connectMs: number = POSTGRES_STORE_DEFAULTS.timeouts.connectMs,
): Promise<MigrationResult> {
  const schema = quoteIdentifier(schemaName);
  let watched;
  try {
    watched = await connectWatched(pool, connectMs);
  } catch (error) {
    throw new PostgresStoreError(
      POSTGRES_STORE_ERROR_CODES.unreachable,
      `PostgreSQL schema "${schemaName}": could not connect to migrate it (${(error as Error).message}); check store.url or DATABASE_URL and that the server is reachable`,
      { cause: error },
    );
  }
  const { client } = watched;
  let failure: unknown;
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`ctxhost-migrate:${schemaName}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const current = await currentVersion(client, schema);
    if (current > LATEST_SCHEMA_VERSION) {
      throw new PostgresStoreError(
        POSTGRES_STORE_ERROR_CODES.schemaTooNew,
        `PostgreSQL schema "${schemaName}" is at version ${current}, newer than this @ctxhost/store-postgres (${LATEST_SCHEMA_VERSION}); upgrade ctxhost on this worker`,
      );
    }
    const applied = await applyMissing(client, schema, current);
    await client.query('COMMIT');
    return { applied, version: Math.max(current, ...applied) };
  } catch (error) {
    failure = error;
    if (watched.broken === undefined) await client.query('ROLLBACK').catch(() => undefined);
    if (PostgresStoreError.isInstance(error)) throw error;
    throw new PostgresStoreError(
      POSTGRES_STORE_ERROR_CODES.migrationFailed,
      `migrating PostgreSQL schema "${schemaName}" failed: ${(error as Error).message}; check that the user may create schemas and tables (nothing was applied)`,
      { cause: error },
    );
  } finally {
    watched.release(PostgresStoreError.isInstance(failure) ? undefined : failure);
  }
}

async function currentVersion(client: PoolClient, schema: string): Promise<number> {
  const result = await client.query<{ version: number | null }>(
    `SELECT max(version) AS version FROM ${schema}.migrations`,
  );
  return result.rows[0]?.version ?? 0;
}

async function applyMissing(client: PoolClient, schema: string, current: number): Promise<number[]> {
  const applied: number[] = [];
  for (const migration of MIGRATIONS.filter((candidate) => candidate.version > current)) {
    await client.query(migration.sql(schema));
    await client.query(`INSERT INTO ${schema}.migrations (version, name) VALUES ($1, $2)`, [
      migration.version,
      migration.name,
    ]);
    applied.push(migration.version);
  }
  return applied;
}
