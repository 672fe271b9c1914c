import { randomUUID } from 'node:crypto';
import { createPartOriginals, type PartOriginals } from './part-originals.js';
import { assertStoreId } from './store-id.js';
import type { CacheEntry, CacheEntryHead, SessionStore, StoreEvent, StoredEvent } from './session-store.js';
import { assertCacheEntry, entryHead } from './cache-entry.js';
import { assertExpectedSeq } from './store-conflict.js';

interface MemorySession {
  events: StoredEvent[];
  byEventId: Map<string, StoredEvent>;
  /** Filled from `events` when a part's original is first asked for (most sessions never ask): appends stay O(1). */
  originals: PartOriginals;
  /** How many of `events` `originals` has seen. */
  recorded: number;
}

/**
 * An in-memory SessionStore: lossless and append-only like the file store,
 * gone when the process ends. For tests, and hosts that persist elsewhere.
 */
export interface MemoryStoreOptions {
  /**
   * Copy events in and out (default true), so a caller changing an object later cannot change the store.
   * `false` is for a log whose writer never changes what it wrote (an ephemeral session's): O(1) per append.
   */
  copy?: boolean;
}

export function createMemoryStore(options: MemoryStoreOptions = {}): SessionStore {
  const copy = options.copy !== false ? <T>(value: T): T => structuredClone(value) : <T>(value: T): T => value;
  const sessions = new Map<string, MemorySession>();
  const entries = new Map<string, CacheEntry>();
  const heads = new Map<string, CacheEntryHead[]>();
  const sessionOf = (id: string): MemorySession => {
    let session = sessions.get(id);
    if (session === undefined) {
      session = {
        events: [],
        byEventId: new Map(),
        originals: createPartOriginals({ copy: options.copy !== false }),
        recorded: 0,
      };
      sessions.set(id, session);
    }
    return session;
  };

  return {
    kind: 'memory',
    async append(sessionId, event: StoreEvent, options = {}) {
      assertStoreId('session id', sessionId);
      if (options.eventId !== undefined) assertStoreId('event id', options.eventId);
      const session = sessionOf(sessionId);
      const existing = options.eventId === undefined ? undefined : session.byEventId.get(options.eventId);
      if (existing !== undefined) return copy(existing);
      assertExpectedSeq(sessionId, options.expectedSeq, session.events.length);
      const stored = {
        ...copy(event),
        seq: session.events.length + 1,
        at: new Date().toISOString(),
        eventId: options.eventId ?? randomUUID(),
      };
      session.events.push(stored);
      session.byEventId.set(stored.eventId, stored);
      return copy(stored);
    },
    async read(sessionId) {
      return copy(sessions.get(sessionId)?.events ?? []);
    },
    async original(sessionId, partId) {
      const session = sessions.get(sessionId);
      if (session === undefined) return undefined;
      while (session.recorded < session.events.length) session.originals.record(session.events[session.recorded++]!);
      return session.originals.get(partId);
    },
    async list() {
      return [...sessions.keys()].filter((id) => (sessions.get(id)?.events.length ?? 0) > 0);
    },
    async delete(sessionId) {
      sessions.delete(sessionId);
    },
    async putEntry(entry) {
      assertCacheEntry(entry);
      const existing = entries.get(entry.key);
      if (existing !== undefined) return { ...existing };
      const stored = { ...entry };
      entries.set(entry.key, stored);
      const filed = heads.get(entry.index) ?? [];
      filed.push(entryHead(stored));
      heads.set(entry.index, filed);
      return { ...stored };
    },
    async getEntry(key) {
      const entry = entries.get(key);
      return entry === undefined ? undefined : { ...entry };
    },
    async entryHeads(index) {
      return (heads.get(index) ?? []).map((head) => ({ ...head }));
    },
    async close() {},
  };
}
