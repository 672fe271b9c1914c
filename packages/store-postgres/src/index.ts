export { createPostgresStore, type PostgresStore } from './postgres-store.js';
export { sessionLockKey } from './session-locks.js';
export { createPostgresStoreFromConfig } from './store-from-config.js';
export { runMigrateCommand, MIGRATE_USAGE } from './migrate-command.js';
export {
  createPostgresEventsPlugin,
  POSTGRES_EVENTS_PLUGIN_NAME,
  type PostgresEventsPlugin,
  type PostgresEventsPluginOptions,
} from './postgres-events-plugin.js';
export { POSTGRES_STORE_DEFAULTS, type PostgresStoreOptions } from './store-options.js';
export {
  runMigrations,
  MIGRATIONS,
  LATEST_SCHEMA_VERSION,
  type Migration,
  type MigrationResult,
} from './migrations.js';
export type { PostgresStoreListener, PostgresStoreNotification } from './store-notifications.js';
export { POSTGRES_STORE_ERROR_CODES, PostgresStoreError, type PostgresStoreErrorCode } from './errors.js';
