import { randomUUID } from 'node:crypto';
import { createPartOriginals, type PartOriginals } from './part-originals.js';
import { assertStoreId } from './store-id.js';
import type { SessionStore, StoreEvent, StoredEvent } from './session-store.js';

interface MemorySession {
  events: StoredEvent[];
  byEventId: Map<string, StoredEvent>;
  originals: PartOriginals;
}

/**
 * An in-memory SessionStore: lossless and append-only like the file store,
 * gone when the process ends. For tests, and hosts that persist elsewhere.
 */
export function createMemoryStore(): SessionStore {
  const sessions = new Map<string, MemorySession>();
  const sessionOf = (id: string): MemorySession => {
    let session = sessions.get(id);
    if (session === undefined) {
      session = { events: [], byEventId: new Map(), originals: createPartOriginals() };
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
      if (existing !== undefined) return structuredClone(existing);
      const stored = {
        ...structuredClone(event),
        seq: session.events.length + 1,
        at: new Date().toISOString(),
        eventId: options.eventId ?? randomUUID(),
      };
      session.events.push(stored);
      session.byEventId.set(stored.eventId, stored);
      session.originals.record(stored);
      return structuredClone(stored);
    },
    async read(sessionId) {
      return structuredClone(sessions.get(sessionId)?.events ?? []);
    },
    async original(sessionId, partId) {
      return sessions.get(sessionId)?.originals.get(partId);
    },
    async list() {
      return [...sessions.keys()].filter((id) => (sessions.get(id)?.events.length ?? 0) > 0);
    },
    async delete(sessionId) {
      sessions.delete(sessionId);
    },
    async close() {},
  };
}
