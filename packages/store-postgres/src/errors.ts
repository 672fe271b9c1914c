import { CORE_ERROR_CODES, CtxhostError, type CtxhostErrorOptions } from '@ctxhost/core';

/** Stable codes of @ctxhost/store-postgres (a newer schema reuses core's CTXHOST_STORE_VERSION). */
export const POSTGRES_STORE_ERROR_CODES = {
  optionsInvalid: 'CTXHOST_POSTGRES_OPTIONS_INVALID',
  migrationFailed: 'CTXHOST_POSTGRES_MIGRATION_FAILED',
  schemaTooNew: CORE_ERROR_CODES.storeVersion,
  storeClosed: 'CTXHOST_POSTGRES_STORE_CLOSED',
  queryFailed: 'CTXHOST_POSTGRES_QUERY_FAILED',
  unreachable: 'CTXHOST_POSTGRES_UNREACHABLE',
  connectionLost: 'CTXHOST_POSTGRES_CONNECTION_LOST',
  timeout: 'CTXHOST_POSTGRES_TIMEOUT',
  lockTimeout: 'CTXHOST_POSTGRES_LOCK_TIMEOUT',
  lockLost: 'CTXHOST_POSTGRES_LOCK_LOST',
} as const;

export type PostgresStoreErrorCode = (typeof POSTGRES_STORE_ERROR_CODES)[keyof typeof POSTGRES_STORE_ERROR_CODES];

const POSTGRES_STORE_ERROR = Symbol.for('ctxhost.store-postgres.error');

/** An error of the PostgreSQL store; `cause` holds the pg error when there is one. */
export class PostgresStoreError extends CtxhostError {
  readonly [POSTGRES_STORE_ERROR] = true;

  constructor(code: PostgresStoreErrorCode, message: string, options: CtxhostErrorOptions = {}) {
    super(code, message, options);
  }

  static override isInstance(value: unknown): value is PostgresStoreError {
    return (
      CtxhostError.isInstance(value) && (value as { [POSTGRES_STORE_ERROR]?: unknown })[POSTGRES_STORE_ERROR] === true
    );
  }
}
