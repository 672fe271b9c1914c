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
 * An append-only, lossless log of session events. Compaction changes what the
 * model sees, never what the store holds: `original(partId)` always returns a
 * part as it was first appended.
 */
export interface SessionStore {
  readonly kind: string;
  /** Appends and returns once the event is durable. `eventId` makes a retried append idempotent. */
  append(sessionId: string, event: StoreEvent, options?: { eventId?: string }): Promise<StoredEvent>;
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
  close(): Promise<void>;
}
