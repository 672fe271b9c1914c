import type { CompactionReason, CompactionReport } from '../model/compaction-report.js';
import type { Message, Part } from '../model/message.js';
import type { Usage } from '../model/usage.js';

/** One entry of a session's append-only log. `seq` is assigned by the store, from 1. */
export type StoreEvent =
  /** `originals`: parts a `toolResult` tap shortened before the append, kept as they arrived. */
  | { type: 'message.appended'; message: Message; originals?: Part[] }
  | { type: 'part.updated'; messageId: string; partId: string; part: Part; reason: string }
  | { type: 'reverted'; toMessageId: string; removedMessageIds: string[] }
  | { type: 'compaction.applied'; projection: Message[]; report: CompactionReport }
  /** A compaction started (observability only: replaying it changes nothing). */
  | {
      type: 'compaction.started';
      reason: CompactionReason;
      engine: string;
      focus?: string;
      instructions?: string[];
      tokensBefore: number;
      messagesBefore: number;
    }
  /** A compaction was vetoed, threw, or saved nothing (observability only). */
  | {
      type: 'compaction.failed';
      reason: CompactionReason;
      engine: string;
      durationMs: number;
      error: string;
      vetoed?: boolean;
    }
  | { type: 'usage.reported'; usage: Usage; afterMessageId: string | undefined };

export type StoredEvent = StoreEvent & { seq: number; at: string; eventId: string };

/**
 * What locates a content-addressed entry without reading it: the stateless path's compaction cache
 * files each entry under an `index` (the hash of a prompt's opening) and a caller verifies
 * `coveredLength` and `coveredHash` against its own prompt before reading the body.
 */
export interface CacheEntryHead {
  /** The entry's address: a hash of `coveredHash` and `settings`. Written once; the first writer wins. */
  key: string;
  /** How many of the prompt's messages the entry replaces (a prefix). */
  coveredLength: number;
  /** The chained hash of exactly those messages. */
  coveredHash: string;
  /** A hash of the settings that made it (engine, its config, the window). */
  settings: string;
}

/** A content-addressed entry: immutable once written. `body` is JSON the writer chose (the stateless path: a projection). */
export interface CacheEntry extends CacheEntryHead {
  index: string;
  body: string;
}

export interface AppendOptions {
  eventId?: string;
  expectedSeq?: number;
}

/**
 * An append-only, lossless log of session events. Compaction changes what the
 * model sees, never what the store holds: `original(partId)` always returns a
 * part as it was first appended.
 */
export interface SessionStore {
  readonly kind: string;
  /**
   * Appends and returns once the event is durable. `eventId` makes a retried append idempotent (an event id
   * already stored returns that event, whatever `expectedSeq` says). `expectedSeq`: a compare-and-set on the
   * session's head: the append is refused with CTXHOST_STORE_CONFLICT (a StoreConflictError, nothing written)
   * unless the session's last seq is exactly that (0: no event yet), so a writer whose view is out of date
   * cannot write over what another writer appended since.
   */
  append(sessionId: string, event: StoreEvent, options?: AppendOptions): Promise<StoredEvent>;
  /** Every event of a session, in order. */
  read(sessionId: string): Promise<StoredEvent[]>;
  /** The part as first appended, before any update. */
  original(sessionId: string, partId: string): Promise<Part | undefined>;
  list(): Promise<string[]>;
  delete(sessionId: string): Promise<void>;
  /**
   * Lets go of what the store holds open for a session (a file handle, a lock,
   * its index in memory); the next call opens it again. Nothing stored is
   * touched. Optional: a store that keeps nothing per session has none.
   */
  release?(sessionId: string): Promise<void>;
  /**
   * Content-addressed entries (the stateless path's compaction cache), beside the session logs.
   * Writes are idempotent, first writer wins: resolves with the entry stored under `entry.key`,
   * which is another writer's when it got there first. No lock is taken. Optional: a store without
   * them leaves the stateless path its in-process cache.
   */
  putEntry?(entry: CacheEntry): Promise<CacheEntry>;
  /** The entry stored under `key`, if any. */
  getEntry?(key: string): Promise<CacheEntry | undefined>;
  /** The heads of every entry filed under `index` (no bodies): one read, whatever the number of sessions. */
  entryHeads?(index: string): Promise<CacheEntryHead[]>;
  close(): Promise<void>;
}
