import { randomUUID } from 'node:crypto';
import { link, readFile, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { CORE_ERROR_CODES, CtxhostError } from '../errors.js';

interface LockOwner {
  pid: number;
  hostname: string;
  token: string;
}

/** A held session lock; `release()` removes the lock file if it is still ours. */
export interface SessionLock {
  readonly path: string;
  release(): Promise<void>;
}

/**
 * Takes the write lock of one session file: `<file>.lock`, created exclusively,
 * holding the owner's pid. A lock whose pid is dead on this host is stale and
 * taken over; a live owner (another process, or another store in this one)
 * is a CTXHOST_STORE_IN_USE error.
 */
export async function acquireSessionLock(path: string, sessionId: string): Promise<SessionLock> {
  const owner: LockOwner = { pid: process.pid, hostname: hostname(), token: randomUUID() };
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if (await createWithContent(path, owner)) return { path, release: () => releaseLock(path, owner.token) };
    const current = await readOwner(path);
    if (current !== undefined && !isStale(current)) {
      throw new CtxhostError(
        CORE_ERROR_CODES.storeInUse,
        `session "${sessionId}" is open for writing by process ${current.pid} on ${current.hostname} (lock ${path}); ` +
          'close the other ctxhost first, or delete the lock file if that process is gone',
      );
    }
    await unlink(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
  throw new CtxhostError(CORE_ERROR_CODES.storeInUse, `session "${sessionId}": another process keeps taking the lock ${path}; retry later`);
}

/** Writes the owner to a private file and hard-links it into place: the lock never exists half-written. */
async function createWithContent(path: string, owner: LockOwner): Promise<boolean> {
  const draft = `${path}.${owner.token}.tmp`;
  await writeFile(draft, `${JSON.stringify(owner)}\n`, { flag: 'wx' });
  try {
    await link(draft, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(draft).catch(() => undefined);
  }
}

async function readOwner(path: string): Promise<LockOwner | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<LockOwner>;
    if (typeof parsed.pid !== 'number' || typeof parsed.token !== 'string') return undefined;
    return { pid: parsed.pid, hostname: String(parsed.hostname), token: parsed.token };
  } catch {
    // Not a lock this code wrote (locks are linked into place complete): treat as stale.
    return undefined;
  }
}

function isStale(owner: LockOwner): boolean {
  if (owner.hostname !== hostname()) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

async function releaseLock(path: string, token: string): Promise<void> {
  const current = await readOwner(path);
  if (current?.token === token) await unlink(path).catch(() => undefined);
}
