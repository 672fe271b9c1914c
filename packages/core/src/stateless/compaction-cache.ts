import { createHash } from 'node:crypto';
import type { Message } from '../model/message.js';
import { validateMessages } from '../model/validate-messages.js';
import { createMemoryStore } from '../stores/memory-store.js';
import type { CacheEntryHead, SessionStore } from '../stores/session-store.js';
import type { ChainList } from './prompt-chain.js';
import type { ReportOnce } from './report-once.js';
import { createStoreBreaker, type StoreRetry } from './store-breaker.js';

/** What `write` stored: `projection` is another writer's, already there under the key, or undefined when ours went in. */
export interface WrittenProjection {
  key: string;
  projection: Message[] | undefined;
}

/** A compaction result from the cache, verified against the prompt: it replaces messages `0..coveredLength`. */
export interface CachedProjection {
  coveredLength: number;
  /** 1 for the first compaction of the prefix; a recovery that had to go further stores 2, 3, … */
  generation: number;
  key: string;
  projection: Message[];
}

export interface CompactionCache {
  /** The longest entry whose covered messages the prompt holds exactly (`hashes[length-1]` matches), made under `settings`. */
  best(hashes: ChainList<string>, settings: string): Promise<CachedProjection | undefined>;
  /** Stores generation `generation` of what `hashes[length-1]` becomes under `settings`; resolves with another writer's projection when one was there first. */
  write(
    hashes: ChainList<string>,
    length: number,
    settings: string,
    generation: number,
    projection: readonly Message[],
  ): Promise<WrittenProjection>;
}

/** How many opening messages name an entry's index: entries are found by the opening, verified by the prefix hash. */
export const CACHE_INDEX_DEPTH = 4;

type EntryStore = Required<Pick<SessionStore, 'putEntry' | 'getEntry' | 'entryHeads'>>;

export interface CompactionCacheOptions {
  /** When a shared store that failed is asked again (default `STORE_RETRY`: after 5 s, then doubling up to 60 s). */
  retry?: StoreRetry;
  now?: () => number;
}

/** The index a probe of a failed store reads: no entry is filed under it. */
const PROBE_INDEX = 'i-store-probe';

/**
 * The stateless path's content-addressed compaction cache over a store's entries. A lookup is a
 * bounded number of store reads (the heads filed under the prompt's first `CACHE_INDEX_DEPTH`
 * prefixes, in parallel, then the one body that matches), never a scan; a write is idempotent, first writer wins. A store without entries, or one that fails, leaves
 * this process its own cache in memory (said once): requests still go out, each worker consistent
 * with itself. After a failure no request waits for the store again until a probe in the background finds it answering.
 */
export function createCompactionCache(
  store: SessionStore,
  report: ReportOnce,
  options: CompactionCacheOptions = {},
): CompactionCache {
  const local: EntryStore = createMemoryStore() as EntryStore;
  const shared: EntryStore | undefined =
    store.putEntry !== undefined && store.getEntry !== undefined && store.entryHeads !== undefined
      ? (store as EntryStore)
      : undefined;
  const breaker = createStoreBreaker(() => shared!.entryHeads(PROBE_INDEX), options.retry, options.now);

  async function tryShared<T>(what: string, fn: (entries: EntryStore) => Promise<T>): Promise<T | undefined> {
    if (shared === undefined || !breaker.allows()) return undefined;
    try {
      return await fn(shared);
    } catch (error) {
      breaker.failed();
      report(
        'store',
        `the ${store.kind} store could not ${what}; this process keeps its compactions in memory meanwhile`,
        error,
        "requests still go out with ctxhost's projections",
      );
      return undefined;
    }
  }

  return {
    async best(hashes, settings) {
      // An entry is filed under the hash of its first min(length, depth) messages: a prompt reads those few indexes, in parallel.
      const indexes = Array.from({ length: Math.min(hashes.length, CACHE_INDEX_DEPTH) }, (_, at) =>
        indexOf(hashes, at + 1),
      );
      const lists = await Promise.all(
        indexes.map(async (index) => [
          ...((await tryShared('list cached compactions', (entries) => entries.entryHeads(index))) ?? []),
          ...(await local.entryHeads(index)),
        ]),
      );
      const heads = lists.flat();
      const match = bestHead(heads, hashes, settings);
      if (match === undefined) return undefined;
      const entry =
        (await tryShared('read a cached compaction', (entries) => entries.getEntry(match.key))) ??
        (await local.getEntry(match.key));
      if (entry === undefined) return undefined;
      const projection = parseProjection(entry.body, report);
      return projection === undefined
        ? undefined
        : { coveredLength: match.coveredLength, generation: generationOf(match.settings), key: match.key, projection };
    },
    async write(hashes, length, settings, generation, projection) {
      const coveredHash = hashes.at(length - 1)!;
      const filed = `${settings}-g${generation}`;
      const entry = {
        key: `c-${createHash('sha256').update(coveredHash).update(filed).digest('hex').slice(0, 40)}`,
        index: indexOf(hashes, length),
        coveredLength: length,
        coveredHash,
        settings: filed,
        body: JSON.stringify({ projection }),
      };
      const stored =
        (await tryShared('store a compaction', (entries) => entries.putEntry(entry))) ?? (await local.putEntry(entry));
      return {
        key: entry.key,
        projection: stored.body === entry.body ? undefined : parseProjection(stored.body, report),
      };
    },
  };
}

function indexOf(hashes: ChainList<string>, length: number): string {
  return `i-${hashes.at(Math.min(length, CACHE_INDEX_DEPTH) - 1)!.slice(0, 32)}`;
}

function bestHead(
  heads: readonly CacheEntryHead[],
  hashes: ChainList<string>,
  settings: string,
): CacheEntryHead | undefined {
  let best: CacheEntryHead | undefined;
  for (const head of heads) {
    if (!head.settings.startsWith(`${settings}-g`) || head.coveredLength > hashes.length) continue;
    if (hashes.at(head.coveredLength - 1) !== head.coveredHash) continue;
    if (
      best === undefined ||
      head.coveredLength > best.coveredLength ||
      (head.coveredLength === best.coveredLength && generationOf(head.settings) > generationOf(best.settings))
    )
      best = head;
  }
  return best;
}

/** An entry's generation, filed after its settings hash (`<settings>-g<n>`). */
function generationOf(settings: string): number {
  return Number(/-g(\d+)$/.exec(settings)?.[1] ?? 0);
}

function parseProjection(body: string, report: ReportOnce): Message[] | undefined {
  try {
    const parsed = JSON.parse(body) as { projection?: unknown };
    return validateMessages(parsed.projection, 'cached projection');
  } catch (error) {
    report('cache-entry', 'a cached compaction could not be read and was left unused', error);
    return undefined;
  }
}
