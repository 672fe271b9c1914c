import type { Client as PgClient, Pool, PoolConfig } from 'pg';
import Client from 'pg/lib/client.js';
import PgPool from 'pg-pool';

/**
 * A `pg` pool built from its parts (the pg-pool class and pg's Client)
 * rather than `pg`'s index: when Node runs with the "import" export condition
 * forced on (as vitest does), `pg`'s index `require`s pg-pool's ESM wrapper and
 * fails at load. This import works under every condition set; the pool is the
 * same class `new pg.Pool()` makes.
 */
export function createPgPool(config: PoolConfig): Pool {
  const PoolClass = PgPool as new (options: PoolConfig & { Client: unknown }) => Pool;
  // pg-pool takes the Client class to build connections with.
  return new PoolClass({ ...config, Client: Client as never });
}

/** A single connection outside any pool (tests, the LISTEN probe). */
export function createPgClient(connectionString: string): PgClient {
  const ClientClass = Client as typeof PgClient;
  return new ClientClass({ connectionString });
}
