import type { Session } from '../host/session.js';
import type { PromptOriginals } from '../host/prompt-originals.js';
import { CACHE_INDEX_DEPTH } from './compaction-cache.js';
import type { ChainList } from './prompt-chain.js';

/**
 * A live view of one conversation in this process: an ephemeral session holding the caller messages
 * `0..length` (their prefix hashes in `hashes`) and what the hooks made of them. A request whose prompt
 * extends it appends only what is new.
 */
export interface StatelessView<S, P> {
  readonly id: string;
  /** The settings hash it was made under (engine, hooks, window): it serves only requests under the same. */
  readonly settings: string;
  readonly session: Session;
  readonly hashes: string[];
  readonly originals: PromptOriginals<S, P>;
  /** The covered length of the newest cached compaction this view holds (0: none). */
  entryLength: number;
  /** Which compaction of that prefix it is: a recovery that takes a second step stores a second generation. */
  entryGeneration: number;
  /**
   * What the cache already knows of this view: the projection list as last stored or adopted, its length and
   * the caller messages then. A projection that is that list plus caller messages needs no new entry.
   */
  committed: { projection: readonly unknown[]; length: number; callerMessages: number };
  busy: boolean;
  lastUsed: number;
  /** Dropped from the pool: its session is deleted. */
  deleted?: boolean;
}

export interface ViewPool<S, P> {
  /** The longest idle view made under `settings` whose messages the prompt starts with exactly, marked busy; undefined when none. */
  take(hashes: ChainList<string>, settings: string): StatelessView<S, P> | undefined;
  /** Adds a new view (busy); evicts the least recently used idle views beyond the limit. */
  add(view: StatelessView<S, P>): void;
  /**
   * Files a view again as idle. `used: false` for a view its turn never used (the framework dropped the turn): it
   * keeps its place in the eviction order, and the least recently used idle views beyond the limit go.
   */
  release(view: StatelessView<S, P>, options?: { used: boolean }): void;
  /** Forgets a view and deletes its session (its hooks' state goes with it). */
  drop(view: StatelessView<S, P>): Promise<void>;
  readonly size: number;
}

/**
 * The live views of this process, filed by their settings and opening (the prefix hash at `CACHE_INDEX_DEPTH`
 * messages, or the whole view when shorter): a view made for one window is never handed to a request under another. A view in use by one request is never handed to
 * another: a concurrent request on the same conversation gets a view of its own, so neither waits.
 */
export function createViewPool<S, P>(maxViews: number, onEvictError: (error: unknown) => void): ViewPool<S, P> {
  const byOpening = new Map<string, Set<StatelessView<S, P>>>();
  const all = new Set<StatelessView<S, P>>();
  let clock = 0;
  let evictionDue = false;

  const openingOf = (view: StatelessView<S, P>): string =>
    `${view.settings}:${view.hashes[Math.min(view.hashes.length, CACHE_INDEX_DEPTH) - 1] ?? ''}`;
  const unfile = (view: StatelessView<S, P>): void => {
    const filed = byOpening.get(openingOf(view));
    filed?.delete(view);
    if (filed?.size === 0) byOpening.delete(openingOf(view));
  };

  const pool: ViewPool<S, P> = {
    take(hashes, settings) {
      let best: StatelessView<S, P> | undefined;
      const candidates = new Set<StatelessView<S, P>>();
      for (let depth = 1; depth <= Math.min(hashes.length, CACHE_INDEX_DEPTH); depth++)
        for (const view of byOpening.get(`${settings}:${hashes.at(depth - 1)!}`) ?? []) candidates.add(view);
      for (const view of candidates) {
        const length = view.hashes.length;
        if (view.busy || length > hashes.length || view.hashes[length - 1] !== hashes.at(length - 1)) continue;
        if (best === undefined || length > best.hashes.length) best = view;
      }
      if (best === undefined) return undefined;
      // Unfiled while in use; `release` files it again under its opening (which changes while it is shorter than the index depth).
      unfile(best);
      best.busy = true;
      best.lastUsed = ++clock;
      return best;
    },
    add(view) {
      view.busy = true;
      view.lastUsed = ++clock;
      all.add(view);
      if (all.size > maxViews) evict();
    },
    release(view, options) {
      view.busy = false;
      if (options?.used !== false) view.lastUsed = ++clock;
      const opening = openingOf(view);
      const filed = byOpening.get(opening) ?? new Set();
      filed.add(view);
      byOpening.set(opening, filed);
      // Unused views come back in a batch (after a collection): evicting once they all have keeps the most recent ones.
      if (options?.used === false && all.size > maxViews && !evictionDue) {
        evictionDue = true;
        setImmediate(() => {
          evictionDue = false;
          evict();
        }).unref();
      }
    },
    async drop(view) {
      unfile(view);
      all.delete(view);
      view.deleted = true;
      await view.session.delete();
    },
    get size() {
      return all.size;
    },
  };

  function evict(): void {
    const idle = [...all].filter((view) => !view.busy).sort((left, right) => left.lastUsed - right.lastUsed);
    for (const view of idle.slice(0, all.size - maxViews)) pool.drop(view).catch(onEvictError);
  }
  return pool;
}
