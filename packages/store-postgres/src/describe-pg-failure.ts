import { CtxhostError } from '@ctxhost/core';
import { POSTGRES_STORE_ERROR_CODES, PostgresStoreError } from './errors.js';
import { messageOf, PgConnectError, pgFailureKind } from './pg-failure.js';
import type { PostgresStoreTimeouts } from './store-options.js';

export interface FailureContext {
  schema: string;
  /** The store call, as the person would say it (`append to session "s1"`). */
  what: string;
  /** Whether the call was already retried once after a lost connection. */
  retried: boolean;
  timeouts: PostgresStoreTimeouts;
}

/** A lost connection is worth one more try; a failed migration counts by what broke under it. */
export function isRetryable(error: unknown): boolean {
  if (PostgresStoreError.isInstance(error)) {
    return (
      error.code === POSTGRES_STORE_ERROR_CODES.migrationFailed &&
      error.cause !== undefined &&
      !CtxhostError.isInstance(error.cause) &&
      pgFailureKind(error.cause) === 'connection-lost'
    );
  }
  if (CtxhostError.isInstance(error)) return false;
  return pgFailureKind(error) === 'connection-lost';
}

/**
 * The error a store call rejects with, saying what failed and what to do:
 * an unreachable server, a lost connection, a timeout (naming the option that
 * bounds it) and data the server refused are different problems.
 */
export function describePgFailure(failure: unknown, context: FailureContext): CtxhostError {
  // The first call's migration could not connect: say which call it was.
  const error =
    PostgresStoreError.isInstance(failure) && failure.cause instanceof PgConnectError ? failure.cause : failure;
  if (CtxhostError.isInstance(error)) return error;
  const prefix = `PostgreSQL store (schema "${context.schema}"): ${context.what} failed`;
  const detail = messageOf(error);
  const make = (code: (typeof POSTGRES_STORE_ERROR_CODES)[keyof typeof POSTGRES_STORE_ERROR_CODES], text: string) =>
    new PostgresStoreError(code, `${prefix}: ${text}`, { cause: error });
  switch (pgFailureKind(error)) {
    case 'unreachable':
      return make(
        POSTGRES_STORE_ERROR_CODES.unreachable,
        `${detail} (timeouts.connectMs ${context.timeouts.connectMs}); check store.url or DATABASE_URL and that the server is reachable`,
      );
    case 'connection-lost':
      return make(
        POSTGRES_STORE_ERROR_CODES.connectionLost,
        `the server ended the connection (${detail})${context.retried ? ', and again on the one retry' : ''}; the server may be restarting or failing over. Whether the call took effect is unknown: retry it (appends with the same event id are stored once)`,
      );
    case 'timeout':
      return make(
        POSTGRES_STORE_ERROR_CODES.timeout,
        `no answer within the timeout (${detail}; timeouts.statementMs ${context.timeouts.statementMs}); the server may be overloaded or unreachable. Retry it (appends with the same event id are stored once)`,
      );
    case 'lock-timeout':
      return make(
        POSTGRES_STORE_ERROR_CODES.timeout,
        `a row it needed stayed locked by another connection for longer than the statement timeout (${detail}); retry later`,
      );
    case 'rejected': {
      const code = (error as { code?: unknown }).code;
      return make(
        POSTGRES_STORE_ERROR_CODES.queryFailed,
        `the server refused it: ${detail} (SQLSTATE ${String(code)})`,
      );
    }
  }
}
