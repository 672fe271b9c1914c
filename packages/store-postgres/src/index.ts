export { createPostgresStore, type PostgresStore } from './postgres-store.js';
export { sessionLockKey } from './session-locks.js';
export { POSTGRES_STORE_DEFAULTS, type PostgresStoreOptions } from './store-options.js';
export { runMigrations, MIGRATIONS, LATEST_SCHEMA_VERSION, type Migration, type MigrationResult } from './migrations.js';
export type { PostgresStoreListener, PostgresStoreNotification } from './store-notifications.js';
export { POSTGRES_STORE_ERROR_CODES, PostgresStoreError, type PostgresStoreErrorCode } from './errors.js';
