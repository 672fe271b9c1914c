import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import envPaths from 'env-paths';
import { createPartOriginals, type PartOriginals } from './part-originals.js';
import { sessionFileStem } from './session-file-name.js';
import { acquireSessionLock, type SessionLock } from './session-lock.js';
import { loadSessionLog, readLogHeader, syncDirectory, writeLogAtomically } from './session-log-file.js';
import type { SessionStore, StoredEvent } from './session-store.js';

export interface FileStoreOptions {
  /** Where the session logs live (default: the env-paths data folder for `ctxhost`, `sessions/`). */
  directory?: string;
}

export interface FileStore extends SessionStore {
  readonly kind: 'file';
  readonly directory: string;
  /** Rewrites a session's log (temp file, fsync, rename): current format, nothing dropped, all or nothing. */
  compactLog(sessionId: string): Promise<void>;
}

interface OpenSession {
  sessionId: string;
  path: string;
  lock: SessionLock;
  events: StoredEvent[];
  byEventId: Map<string, StoredEvent>;
  originals: PartOriginals;
  /** The append handle, opened on the first append (the file is created then). */
  handle: FileHandle | undefined;
}

/** The default session-log folder. */
export function defaultSessionDirectory(): string {
  return join(envPaths('ctxhost', { suffix: '' }).data, 'sessions');
}

/**
 * The default store: one JSONL file per session (a header line with the format
 * version, then one event per line). An append resolves only after its line is
 * written and fsynced. A session is opened once per store (index of events,
 * event ids and part originals built then) and locked for writing with
 * `<file>.lock` holding the owner's pid; a second process gets
 * CTXHOST_STORE_IN_USE, a lock left by a dead process is taken over. Operations
 * on one session run one at a time; different sessions run in parallel.
 */
export function createFileStore(options: FileStoreOptions = {}): FileStore {
  const directory = options.directory ?? defaultSessionDirectory();
  const sessions = new Map<string, Promise<OpenSession>>();
  const queues = new Map<string, Promise<unknown>>();
  let ready: Promise<void> | undefined;
  let closed = false;

  const ensureDirectory = () => (ready ??= mkdir(directory, { recursive: true }).then(() => undefined));
  const pathOf = (sessionId: string) => join(directory, `${sessionFileStem(sessionId)}.jsonl`);

  /** Runs `task` after every earlier operation on the session. */
  function serialize<T>(sessionId: string, task: () => Promise<T>): Promise<T> {
    if (closed) return Promise.reject(new Error('the file store is closed; create a new one'));
    const previous = queues.get(sessionId) ?? Promise.resolve();
    const run = previous.then(task, task);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    queues.set(sessionId, settled);
    void settled.then(() => {
      if (queues.get(sessionId) === settled) queues.delete(sessionId);
    });
    return run;
  }

  function openSession(sessionId: string): Promise<OpenSession> {
    let opening = sessions.get(sessionId);
    if (opening === undefined) {
      opening = loadOpenSession(sessionId);
      sessions.set(sessionId, opening);
      opening.catch(() => sessions.delete(sessionId));
    }
    return opening;
  }

  async function loadOpenSession(sessionId: string): Promise<OpenSession> {
    await ensureDirectory();
    const path = pathOf(sessionId);
    const lock = await acquireSessionLock(`${path}.lock`, sessionId);
    try {
      const log = await loadSessionLog(path);
      if (log !== undefined && log.sessionId !== sessionId) {
        throw new Error(`session log ${path} belongs to session "${log.sessionId}", not "${sessionId}"`);
      }
      const events = log?.events ?? [];
      const originals = createPartOriginals();
      events.forEach((event) => originals.record(event));
      return { sessionId, path, lock, events, byEventId: new Map(events.map((event) => [event.eventId, event])), originals, handle: undefined };
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /** Closes and forgets an open session (after a failed write, the next access reopens and repairs the file). */
  async function dropSession(sessionId: string): Promise<void> {
    const opening = sessions.get(sessionId);
    sessions.delete(sessionId);
    const session = await opening?.catch(() => undefined);
    if (session === undefined) return;
    await session.handle?.close().catch(() => undefined);
    await session.lock.release();
  }

  async function appendLine(session: OpenSession, event: StoredEvent): Promise<void> {
    if (session.handle === undefined) {
      if (session.events.length === 0) {
        await writeLogAtomically(session.path, session.sessionId, []);
      }
      session.handle = await open(session.path, 'a');
    }
    await session.handle.write(`${JSON.stringify(event)}\n`);
    await session.handle.datasync();
  }

  const store: FileStore = {
    kind: 'file',
    directory,
    append(sessionId, event, appendOptions) {
      return serialize(sessionId, async () => {
        const session = await openSession(sessionId);
        const eventId = appendOptions?.eventId ?? randomUUID();
        const existing = session.byEventId.get(eventId);
        if (existing !== undefined) return structuredClone(existing);
        const stored = { ...structuredClone(event), seq: session.events.length + 1, at: new Date().toISOString(), eventId } as StoredEvent;
        try {
          await appendLine(session, stored);
        } catch (error) {
          await dropSession(sessionId);
          throw error;
        }
        session.events.push(stored);
        session.byEventId.set(eventId, stored);
        session.originals.record(stored);
        return structuredClone(stored);
      });
    },
    read(sessionId) {
      return serialize(sessionId, async () => structuredClone((await openSession(sessionId)).events));
    },
    original(sessionId, partId) {
      return serialize(sessionId, async () => (await openSession(sessionId)).originals.get(partId));
    },
    async list() {
      await ensureDirectory();
      const names = (await readdir(directory)).filter((name) => name.endsWith('.jsonl'));
      const headers = await Promise.all(names.map((name) => readLogHeader(join(directory, name)).catch(() => undefined)));
      return headers.flatMap((header) => (header === undefined ? [] : [header.sessionId])).sort();
    },
    delete(sessionId) {
      return serialize(sessionId, async () => {
        const session = await openSession(sessionId);
        await session.handle?.close();
        session.handle = undefined;
        await unlink(session.path).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
        });
        await syncDirectory(directory);
        await dropSession(sessionId);
      });
    },
    compactLog(sessionId) {
      return serialize(sessionId, async () => {
        const session = await openSession(sessionId);
        if (session.events.length === 0) return;
        await session.handle?.close();
        session.handle = undefined;
        await writeLogAtomically(session.path, sessionId, session.events);
      });
    },
    async close() {
      await Promise.all([...queues.values()]);
      closed = true;
      await Promise.all([...sessions.keys()].map((sessionId) => dropSession(sessionId)));
    },
  };
  return store;
}
