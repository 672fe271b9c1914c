import { CORE_ERROR_CODES, CtxhostError } from '../errors.js';

/** The longest session or event id a store accepts, in UTF-8 bytes (PostgreSQL's index rows and file names both need a bound). */
export const STORE_ID_MAX_BYTES = 1024;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Checks a session or event id the same way in every store: a non-empty,
 * well-formed Unicode string (a lone surrogate would be replaced by U+FFFD on
 * its way to UTF-8, so two ids would become one), no NUL, at most
 * STORE_ID_MAX_BYTES bytes. Throws CTXHOST_STORE_ID_INVALID naming what is wrong.
 */
export function assertStoreId(what: 'session id' | 'event id', value: unknown): asserts value is string {
  const problem = storeIdProblem(value);
  if (problem !== undefined)
    throw new CtxhostError(CORE_ERROR_CODES.storeIdInvalid, `${what} ${preview(value)} is not usable: ${problem}`);
}

function storeIdProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `expected a string, got ${value === null ? 'null' : typeof value}`;
  if (value.length === 0) return 'it is empty';
  if (LONE_SURROGATE.test(value)) return 'it holds a lone UTF-16 surrogate (not well-formed Unicode)';
  if (value.includes('\u0000')) return 'it holds a NUL character';
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes > STORE_ID_MAX_BYTES) return `it is ${bytes} bytes long in UTF-8, the limit is ${STORE_ID_MAX_BYTES}`;
  return undefined;
}

function preview(value: unknown): string {
  if (typeof value !== 'string') return '';
  const shown = JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  return shown;
}
