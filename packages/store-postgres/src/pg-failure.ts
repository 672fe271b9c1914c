/**
 * What kind of failure a `pg` error is, which decides what the store does
 * with it: a lost connection is retried once (every store call is idempotent:
 * an append carries its event id), a timeout or an unreachable server is
 * reported as such, and an error the server raised about the data is bad
 * input, not a network problem.
 */
export type PgFailureKind = 'unreachable' | 'connection-lost' | 'timeout' | 'lock-timeout' | 'rejected';

/** Raised by the store's own deadlines (the server never answered in time). */
export class PgDeadlineError extends Error {
  constructor(
    readonly what: string,
    readonly ms: number,
  ) {
    super(`no answer from the server within ${ms} ms (${what})`);
  }
}

/** Raised when a connection could not be opened (tagged so a later "connection ended" is not mistaken for it). */
export class PgConnectError extends Error {
  constructor(cause: unknown) {
    super(`could not connect: ${messageOf(cause)}`, { cause });
  }
}

const CONNECTION_LOST_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08003',
  '08006',
  '08007',
]);
const TIMEOUT_CODES = new Set(['57014', '25P03']);

export function pgFailureKind(error: unknown): PgFailureKind {
  if (error instanceof PgConnectError) return 'unreachable';
  if (error instanceof PgDeadlineError) return 'timeout';
  const code = (error as { code?: unknown } | null)?.code;
  const message = messageOf(error);
  if (code === '55P03') return 'lock-timeout';
  if (typeof code === 'string' && TIMEOUT_CODES.has(code)) return 'timeout';
  if (message === 'Query read timeout') return 'timeout';
  if (typeof code === 'string' && CONNECTION_LOST_CODES.has(code)) return 'connection-lost';
  if (/Connection terminated|Client has encountered a connection error|not queryable|socket hang up/i.test(message))
    return 'connection-lost';
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return 'rejected';
  return 'connection-lost';
}

/** A server-reported error (SQLSTATE code) other than a dropped session leaves the connection usable. */
export function leavesConnectionUsable(error: unknown): boolean {
  const kind = pgFailureKind(error);
  return (
    kind === 'rejected' ||
    kind === 'lock-timeout' ||
    (kind === 'timeout' && (error as { code?: unknown }).code === '57014')
  );
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
