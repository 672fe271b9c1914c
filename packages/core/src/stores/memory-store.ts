import { randomUUID } from 'node:crypto';
import { CORE_ERROR_CODES, CtxhostError } from '../errors.js';
import { createPartOriginals, type PartOriginals } from './part-originals.js';
import { assertStoreId } from './store-id.js';
import type { Message } from '../model/message.js';
import type { CacheEntry, CacheEntryHead, SessionStore, StoreEvent, StoredEvent } from './session-store.js';
import { assertCacheEntry, entryHead } from './cache-entry.js';
import { assertExpectedSeq } from './store-conflict.js';

interface MemorySession {
  /** Messages seeded at once (`seed`): their events are made only when read, so seeding costs no object per message. */
  seeded: readonly Message[];
  seededAt: string;
  /** The events after the seeded ones (seq `seeded.length + 1` on). */
  events: StoredEvent[];
  byEventId: Map<string, StoredEvent>;
  /** Filled from `events` when a part's original is first asked for (most sessions never ask): appends stay O(1). */
  originals: PartOriginals;
  /** How many of the seeded messages, then of `events`, `originals` has seen. */
  recorded: number;
}

/** The memory store, with the bulk seeding an ephemeral session starts from. */
export interface MemoryStore extends SessionStore {
  /**
   * Starts an empty session's log with one `message.appended` event per message, in O(1) (the list is kept,
   * not copied: never change it). Their event ids are `seed-<seq>`, not indexed for a retried append (no one
   * retries them). Resolves with the last seeded event, or undefined when `messages` is empty.
   */
  seed(sessionId: string, messages: readonly Message[]): StoredEvent | undefined;
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

export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const copy = options.copy !== false ? <T>(value: T): T => structuredClone(value) : <T>(value: T): T => value;
  const sessions = new Map<string, MemorySession>();
  const entries = new Map<string, CacheEntry>();
  const heads = new Map<string, CacheEntryHead[]>();
  const sessionOf = (id: string): MemorySession => {
    let session = sessions.get(id);
    if (session === undefined) {
      session = {
        seeded: [],
        seededAt: '',
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
      assertExpectedSeq(sessionId, options.expectedSeq, lengthOf(session));
      const stored = {
        ...copy(event),
        seq: lengthOf(session) + 1,
        at: new Date().toISOString(),
        eventId: options.eventId ?? randomUUID(),
      };
      session.events.push(stored);
      session.byEventId.set(stored.eventId, stored);
      return copy(stored);
    },
    seed(sessionId, messages) {
      assertStoreId('session id', sessionId);
      const session = sessionOf(sessionId);
      if (lengthOf(session) > 0)
        throw new CtxhostError(
          CORE_ERROR_CODES.sessionExists,
          `memory store: session ${sessionId} already has events; only an empty session can be seeded (use a new id)`,
        );
      session.seeded = messages;
      session.seededAt = new Date().toISOString();
      return messages.length === 0 ? undefined : seededEvent(session, messages.length - 1);
    },
    async read(sessionId) {
      const session = sessions.get(sessionId);
      if (session === undefined) return [];
      const seeded = session.seeded.map((_message, index) => seededEvent(session, index));
      return copy(seeded.length === 0 ? session.events : [...seeded, ...session.events]);
    },
    async original(sessionId, partId) {
      const session = sessions.get(sessionId);
      if (session === undefined) return undefined;
      const { seeded, events } = session;
      while (session.recorded < seeded.length)
        session.originals.record({ type: 'message.appended', message: seeded[session.recorded++]! });
      while (session.recorded < seeded.length + events.length)
        session.originals.record(events[session.recorded++ - seeded.length]!);
      return session.originals.get(partId);
    },
    async list() {
      return [...sessions.keys()].filter((id) => lengthOf(sessions.get(id)!) > 0);
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

const lengthOf = (session: MemorySession): number => session.seeded.length + session.events.length;

function seededEvent(session: MemorySession, index: number): StoredEvent {
  return {
    type: 'message.appended',
    message: session.seeded[index]!,
    seq: index + 1,
    at: session.seededAt,
    eventId: `seed-${index + 1}`,
  };
}
