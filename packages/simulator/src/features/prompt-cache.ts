import { createHash } from 'node:crypto';
import { countBlockTokens, countToolTokens, messageBlocks, systemBlocks, TOKENIZER } from '../wire/tokenizer.js';
import type { CacheControl, MessagesRequest } from '../wire/wire.js';

/** How far back from a breakpoint the cache looks for an earlier cached prefix (the API's 20 blocks). */
export const CACHE_LOOKBACK_BLOCKS = 20;
const TTL_MS = { '5m': 5 * 60_000, '1h': 60 * 60_000 } as const;

export interface CacheUsage {
  read: number;
  creation5m: number;
  creation1h: number;
}

interface Segment {
  hash: string;
  /** Tokens of the prompt through this segment. */
  cumulative: number;
  breakpoint: CacheControl | undefined;
}

/**
 * Prefix caching as the API does it: the prompt renders tools → system →
 * messages; a `cache_control` breakpoint caches the prefix through its block
 * (if it is at least the model's minimum length); a later request whose prefix
 * matches, at a breakpoint or up to 20 blocks before it, reads it. Reads refresh the TTL.
 */
export function createPromptCache(now: () => number) {
  const entries = new Map<string, { expires: number; ttl: '5m' | '1h' }>();

  return {
    apply(request: MessagesRequest, minimumTokens: number): CacheUsage {
      const segments = render(request);
      const time = now();
      const readEnd = longestCachedPrefix(segments, entries, time);
      const read = readEnd < 0 ? 0 : segments[readEnd]!.cumulative;
      if (readEnd >= 0)
        entries.get(segments[readEnd]!.hash)!.expires = time + TTL_MS[entries.get(segments[readEnd]!.hash)!.ttl];
      const usage: CacheUsage = { read, creation5m: 0, creation1h: 0 };
      let writtenThrough = read;
      segments.forEach((segment, index) => {
        if (segment.breakpoint === undefined || index <= readEnd || segment.cumulative < minimumTokens) return;
        const ttl = segment.breakpoint.ttl ?? '5m';
        const existing = entries.get(segment.hash);
        if (existing === undefined || existing.expires <= time)
          entries.set(segment.hash, { expires: time + TTL_MS[ttl], ttl });
        const created = segment.cumulative - writtenThrough;
        if (ttl === '1h') usage.creation1h += created;
        else usage.creation5m += created;
        writtenThrough = segment.cumulative;
      });
      return usage;
    },
    /**
     * Caches `request`'s prefix through its last block that ends at or before `tokens`, as an
     * earlier request with a breakpoint there would have (a cache warmed before this simulator
     * started). Returns the tokens it cached: 0 when no block boundary is that early.
     */
    warm(request: MessagesRequest, tokens: number, ttl: '5m' | '1h' = '5m'): number {
      const through = render(request)
        .filter((segment) => segment.cumulative <= tokens)
        .at(-1);
      if (through === undefined) return 0;
      entries.set(through.hash, { expires: now() + TTL_MS[ttl], ttl });
      return through.cumulative;
    },
    clear() {
      entries.clear();
    },
  };
}

function longestCachedPrefix(segments: Segment[], entries: Map<string, { expires: number }>, time: number): number {
  let best = -1;
  segments.forEach((segment, index) => {
    if (segment.breakpoint === undefined) return;
    for (let candidate = index; candidate >= Math.max(0, index - CACHE_LOOKBACK_BLOCKS); candidate--) {
      const entry = entries.get(segments[candidate]!.hash);
      if (entry !== undefined && entry.expires > time) {
        best = Math.max(best, candidate);
        break;
      }
    }
  });
  return best;
}

function render(request: MessagesRequest): Segment[] {
  const segments: Segment[] = [];
  let hash = createHash('sha256').update(request.model);
  let cumulative = 0;
  const push = (key: unknown, tokens: number, breakpoint: CacheControl | null | undefined) => {
    hash = createHash('sha256').update(hash.copy().digest('hex')).update(JSON.stringify(key));
    cumulative += tokens;
    segments.push({ hash: hash.copy().digest('hex'), cumulative, breakpoint: breakpoint ?? undefined });
  };
  for (const tool of request.tools ?? []) push(strip(tool), countToolTokens(tool), tool.cache_control);
  for (const block of systemBlocks(request.system)) push(strip(block), countBlockTokens(block), block.cache_control);
  request.messages.forEach((message) => {
    messageBlocks(message).forEach((block, index) => {
      push(
        [message.role, strip(block)],
        countBlockTokens(block) + (index === 0 ? TOKENIZER.message : 0),
        block.cache_control,
      );
    });
  });
  return segments;
}

function strip<T extends { cache_control?: unknown }>(value: T): Omit<T, 'cache_control'> {
  const { cache_control: _cache, ...rest } = value;
  return rest;
}
