import { randomUUID } from 'node:crypto';
import { link, readFile, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { CORE_ERROR_CODES, CtxhostError } from '../errors.js';
import { currentOwner, isOwnerGone, type LockOwner } from './lock-owner.js';

/** A held session lock; `release()` removes the lock file if it is still ours. */
export interface SessionLock {
  readonly path: string;
  /** Refreshes the lock's mtime (its heartbeat, read by other hosts). */
  touch(): Promise<void>;
  release(): Promise<void>;
}

/** A lock file as found: its owner (when it is one this code wrote) and an identity no later lock file can share. */
interface FoundLock {
  owner: LockOwner | undefined;
  identity: string;
  mtimeMs: number;
}

const ATTEMPTS = 5;

/**
 * Takes the write lock of one session file: `<file>.lock`, holding the owner
 * (pid, host, boot id, process start time), written to a private file and
 * hard-linked into place, so it never exists half-written and only one
 * creator can win. A live owner (another process, or another store in this
 * one) is a CTXHOST_STORE_IN_USE error. A lock whose owner is gone (see
 * `isOwnerGone`) is taken over through a claim: `<lock>.takeover-<identity>`,
 * created exclusively, so of several processes taking over the same dead
 * lock exactly one removes it — the others find the claim, or find a newer
 * lock, and never remove a lock someone just took.
 */
export async function acquireSessionLock(path: string, sessionId: string): Promise<SessionLock> {
  const owner = currentOwner(randomUUID());
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    if (await createWithContent(path, owner)) return heldLock(path, owner.token);
    const found = await readLock(path);
    if (found === undefined) continue; // released in between: try again
    if (found.owner !== undefined && !isOwnerGone(found.owner, found.mtimeMs))
      throw inUse(sessionId, path, found.owner);
    await removeAbandoned(path, found, 0);
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 5 * attempt));
  }
  throw new CtxhostError(
    CORE_ERROR_CODES.storeInUse,
    `session "${sessionId}": other processes keep taking the lock ${path}; retry later`,
  );
}

function inUse(sessionId: string, path: string, owner: LockOwner): CtxhostError {
  return new CtxhostError(
    CORE_ERROR_CODES.storeInUse,
    `session "${sessionId}" is open for writing by process ${owner.pid} on ${owner.hostname} (lock ${path}); ` +
      'close the other ctxhost first, or delete the lock file if that process is gone',
  );
}

/**
 * Removes a lock whose owner is gone, if it is still the lock that was judged.
 * The claim file makes the check-then-unlink one step among contenders: a lock
 * with this identity can only be unlinked by whoever created its claim. A claim
 * whose own creator died (mid-takeover) is abandoned in turn and removed the same way.
 */
async function removeAbandoned(path: string, judged: FoundLock, depth: number): Promise<void> {
  const claim = `${path}.takeover-${judged.identity}`;
  const me = currentOwner(randomUUID());
  if (await createWithContent(claim, me)) {
    try {
      const now = await readLock(path);
      if (now?.identity === judged.identity) await unlinkIfPresent(path);
    } finally {
      await unlinkIfPresent(claim);
    }
    return;
  }
  const claimed = await readLock(claim);
  if (claimed === undefined || depth >= 2) return;
  if (claimed.owner === undefined || isOwnerGone(claimed.owner, claimed.mtimeMs))
    await removeAbandoned(claim, claimed, depth + 1);
}

function heldLock(path: string, token: string): SessionLock {
  return {
    path,
    async touch() {
      const now = new Date();
      await utimes(path, now, now).catch(() => undefined);
    },
    async release() {
      const current = await readLock(path);
      if (current?.owner?.token === token) await unlinkIfPresent(path);
    },
  };
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
    await unlinkIfPresent(draft);
  }
}

async function readLock(path: string): Promise<FoundLock | undefined> {
  let text: string;
  let info;
  try {
    info = await stat(path);
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const owner = parseOwner(text);
  // A token is unique to one lock; a file this code did not write is told apart by inode, size and mtime.
  const identity = owner?.token ?? `foreign-${info.ino}-${info.size}-${Math.floor(info.mtimeMs)}`;
  return { owner, identity, mtimeMs: info.mtimeMs };
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const parsed = JSON.parse(text) as Partial<LockOwner>;
    if (typeof parsed.pid !== 'number' || typeof parsed.token !== 'string' || !/^[0-9a-f-]{1,64}$/.test(parsed.token))
      return undefined;
    return {
      pid: parsed.pid,
      hostname: String(parsed.hostname),
      bootId: typeof parsed.bootId === 'string' ? parsed.bootId : undefined,
      startTime: typeof parsed.startTime === 'string' ? parsed.startTime : undefined,
      token: parsed.token,
    };
  } catch {
    // Not a lock this code wrote (locks are linked into place complete): it has no owner to ask.
    return undefined;
  }
}

async function unlinkIfPresent(path: string): Promise<void> {
  await unlink(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}
