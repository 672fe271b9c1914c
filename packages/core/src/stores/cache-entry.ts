import { CORE_ERROR_CODES, CtxhostError } from '../errors.js';
import type { CacheEntry, CacheEntryHead } from './session-store.js';

/** The head of an entry: what a reader verifies before it reads the body. */
export function entryHead(entry: CacheEntryHead): CacheEntryHead {
  return {
    key: entry.key,
    coveredLength: entry.coveredLength,
    coveredHash: entry.coveredHash,
    settings: entry.settings,
  };
}

const HASH = /^[0-9a-z_-]{8,128}$/i;

/** Refuses an entry a store could not file safely (its key, index and hashes name files and rows). */
export function assertCacheEntry(entry: CacheEntry): void {
  const problems: string[] = [];
  for (const field of ['key', 'index', 'coveredHash', 'settings'] as const)
    if (typeof entry[field] !== 'string' || !HASH.test(entry[field]))
      problems.push(`${field}: expected 8 to 128 letters, digits, "-" or "_", got ${JSON.stringify(entry[field])}`);
  if (!Number.isInteger(entry.coveredLength) || entry.coveredLength < 1)
    problems.push(`coveredLength: expected a whole number above 0, got ${JSON.stringify(entry.coveredLength)}`);
  if (typeof entry.body !== 'string') problems.push('body: expected a JSON string');
  if (problems.length > 0)
    throw new CtxhostError(
      CORE_ERROR_CODES.cacheEntryInvalid,
      `cache entry ${String(entry.key)}: ${problems.join('; ')}`,
    );
}
