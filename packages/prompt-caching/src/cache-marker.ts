import type { CacheControl } from '@ctxhost/core';
import { CacheTtlError } from './errors.js';

/** The two lifetimes Anthropic's cache accepts. 5 minutes is the API's default. */
export type CacheTtl = '5m' | '1h';

export const CACHE_TTLS: readonly CacheTtl[] = ['5m', '1h'];

/** The API's limit of `cache_control` breakpoints per request (tools, system and messages together). */
export const MAX_CACHE_BREAKPOINTS = 4;

export function isCacheTtl(value: unknown): value is CacheTtl {
  return value === '5m' || value === '1h';
}

/**
 * The breakpoint marker: `{ type: 'ephemeral' }` for 5 minutes (the API's
 * default, so no `ttl` is sent), `{ type: 'ephemeral', ttl: '1h' }` for an hour.
 * Throws CacheTtlError for anything else.
 */
export function createCacheMarker(ttl: CacheTtl = '5m'): CacheControl {
  if (!isCacheTtl(ttl)) throw new CacheTtlError(ttl);
  return ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
}
