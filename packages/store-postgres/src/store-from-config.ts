import type { CtxhostConfig } from '@ctxhost/core';
import { POSTGRES_STORE_ERROR_CODES, PostgresStoreError } from './errors.js';
import { createPostgresStore, type PostgresStore } from './postgres-store.js';
import type { PostgresStoreOptions } from './store-options.js';

/**
 * The store that a config's `store: { kind: postgres, url }` names (`url`
 * falls back to DATABASE_URL). Pass it to the host as `store`; the file store
 * stays the default for every other `kind`.
 */
export function createPostgresStoreFromConfig(
  section: CtxhostConfig['store'],
  extra: Omit<PostgresStoreOptions, 'url' | 'pool'> = {},
): PostgresStore {
  if (section.kind !== 'postgres') {
    throw new PostgresStoreError(
      POSTGRES_STORE_ERROR_CODES.optionsInvalid,
      `store.kind is "${section.kind}", not "postgres"; set store.kind: postgres (and store.url) to use @ctxhost/store-postgres`,
    );
  }
  return createPostgresStore(section.url === undefined ? extra : { ...extra, url: section.url });
}
