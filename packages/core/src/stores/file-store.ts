import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, unlink, type FileHandle } from 'node:fs/promises';
import { basename, join } from 'node:path';
import envPaths from 'env-paths';
import { CORE_ERROR_CODES, CtxhostError } from '../errors.js';
import { LOCK_HEARTBEAT_MS } from './lock-owner.js';
import { createPartOriginals, type PartOriginals } from './part-originals.js';
import { sessionFileStem } from './session-file-name.js';
import { acquireSessionLock, type SessionLock } from './session-lock.js';
import { loadSessionLog, readLogHeader, syncDirectory, writeLogAtomically } from './session-log-file.js';
import type { SessionStore, StoredEvent } from './session-store.js';
import { assertStoreId } from './store-id.js';
import { createFileEntries } from './file-entries.js';
import { assertExpectedSeq } from './store-conflict.js';

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
  /** The file's length after the last complete line (where a failed append is cut back to). */
  size: number;
  /** Set when a failed append could not be cut back: the session refuses every call until the store is reopened. */
  broken: Error | undefined;
}

const DRAFT_SUFFIX = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.tmp$/;

/** Writes every byte of `data` (a write may take fewer bytes than asked, on a full disk or at a size limit). */
async function writeAll(handle: FileHandle, data: Buffer): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset);
    if (bytesWritten <= 0)
      throw new Error(`the file system took no bytes of ${data.length - offset} (disk full or file size limit?)`);
    offset += bytesWritten;
  }
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
    startHeartbeat();
    try {
      await removeLeftoverDrafts(path);
      const log = await loadSessionLog(path);
      if (log !== undefined && log.sessionId !== sessionId) {
        throw new Error(`session log ${path} belongs to session "${log.sessionId}", not "${sessionId}"`);
      }
      const events = log?.events ?? [];
      const originals = createPartOriginals();
      events.forEach((event) => originals.record(event));
      return {
        sessionId,
        path,
        lock,
        events,
        byEventId: new Map(events.map((event) => [event.eventId, event])),
        originals,
        handle: undefined,
        size: 0,
        broken: undefined,
      };
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
      session.size = (await session.handle.stat()).size;
    }
    const handle = session.handle;
    const line = Buffer.from(`${JSON.stringify(event)}\n`);
    try {
      await writeAll(handle, line);
      await handle.datasync();
    } catch (error) {
      await cutBack(session, handle, error);
      throw error;
    }
    session.size += line.length;
  }

  /**
   * After a failed append (a full disk, a file-size limit, an I/O error), the
   * bytes written of its line are cut off and the cut is synced, so the log
   * ends on a complete line again and the next append lands after it. If even
   * that fails, the session is marked broken: nothing more is written to it
   * by this store, and reopening drops the torn last line.
   */
  async function cutBack(session: OpenSession, handle: FileHandle, cause: unknown): Promise<void> {
    try {
      await handle.truncate(session.size);
      await handle.datasync();
    } catch (truncateError) {
      session.broken = new CtxhostError(
        CORE_ERROR_CODES.storeBroken,
        `session log ${session.path}: an append failed (${(cause as Error).message}) and its partly written line could not be removed (${(truncateError as Error).message}); ` +
          'this store writes nothing more to the session. Free space or fix the disk, then open the store again: the torn last line is dropped on open',
        { cause },
      );
    }
  }

  function assertUsable(session: OpenSession): void {
    if (session.broken !== undefined) throw session.broken;
  }

  let heartbeat: NodeJS.Timeout | undefined;
  /** Keeps every held lock's mtime fresh, so another host can tell a live holder from an abandoned lock. */
  function startHeartbeat(): void {
    if (heartbeat !== undefined) return;
    heartbeat = setInterval(() => {
      for (const opening of sessions.values())
        void opening.then(
          (session) => session.lock.touch(),
          () => undefined,
        );
    }, LOCK_HEARTBEAT_MS);
    heartbeat.unref();
  }

  /** Drafts of a log rewrite (`<file>.<uuid>.tmp`) a killed process left behind; only the lock holder may remove them. */
  async function removeLeftoverDrafts(path: string): Promise<void> {
    const prefix = `${basename(path)}.`;
    const names = await readdir(directory).catch(() => [] as string[]);
    const drafts = names.filter((name) => name.startsWith(prefix) && DRAFT_SUFFIX.test(name.slice(prefix.length)));
    await Promise.all(drafts.map((name) => unlink(join(directory, name)).catch(() => undefined)));
  }

  async function openChecked(sessionId: string): Promise<OpenSession> {
    assertStoreId('session id', sessionId);
    const session = await openSession(sessionId);
    assertUsable(session);
    return session;
  }

  const store: FileStore = {
    kind: 'file',
    directory,
    ...createFileEntries(directory),
    append(sessionId, event, appendOptions) {
      return serialize(sessionId, async () => {
        assertStoreId('session id', sessionId);
        if (appendOptions?.eventId !== undefined) assertStoreId('event id', appendOptions.eventId);
        const session = await openSession(sessionId);
        assertUsable(session);
        const eventId = appendOptions?.eventId ?? randomUUID();
        const existing = session.byEventId.get(eventId);
        if (existing !== undefined) return structuredClone(existing);
        assertExpectedSeq(sessionId, appendOptions?.expectedSeq, session.events.length);
        const stored = {
          ...structuredClone(event),
          seq: session.events.length + 1,
          at: new Date().toISOString(),
          eventId,
        };
        await appendLine(session, stored);
        session.events.push(stored);
        session.byEventId.set(eventId, stored);
        session.originals.record(stored);
        return structuredClone(stored);
      });
    },
    read(sessionId) {
      return serialize(sessionId, async () => structuredClone((await openChecked(sessionId)).events));
    },
    original(sessionId, partId) {
      return serialize(sessionId, async () => (await openChecked(sessionId)).originals.get(partId));
    },
    async list() {
      await ensureDirectory();
      const names = (await readdir(directory)).filter((name) => name.endsWith('.jsonl'));
      const headers = await Promise.all(
        names.map((name) => readLogHeader(join(directory, name)).catch(() => undefined)),
      );
      return headers.flatMap((header) => (header === undefined ? [] : [header.sessionId])).sort();
    },
    delete(sessionId) {
      return serialize(sessionId, async () => {
        const session = await openChecked(sessionId);
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
        const session = await openChecked(sessionId);
        if (session.events.length === 0) return;
        await session.handle?.close();
        session.handle = undefined;
        await writeLogAtomically(session.path, sessionId, session.events);
      });
    },
    release(sessionId) {
      return serialize(sessionId, () => dropSession(sessionId));
    },
    async close() {
      await Promise.all([...queues.values()]);
      closed = true;
      clearInterval(heartbeat);
      await Promise.all([...sessions.keys()].map((sessionId) => dropSession(sessionId)));
    },
  };
  return store;
}
