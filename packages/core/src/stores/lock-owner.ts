import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** Who holds a session lock: enough to tell, from another process, whether that holder can still be alive. */
export interface LockOwner {
  pid: number;
  hostname: string;
  /** The kernel's boot id (Linux); another boot means the holder is gone. */
  bootId: string | undefined;
  /** The process's start time (clock ticks since boot, Linux): a live pid with another start time is pid reuse. */
  startTime: string | undefined;
  token: string;
}

/** How often a store refreshes its locks' mtime, and how old a lock from another host may get before it counts as abandoned. */
export const LOCK_HEARTBEAT_MS = 10_000;
export const FOREIGN_LOCK_STALE_MS = 6 * LOCK_HEARTBEAT_MS;

export function currentOwner(token: string): LockOwner {
  return {
    pid: process.pid,
    hostname: hostname(),
    bootId: readBootId(),
    startTime: processStartTime(process.pid),
    token,
  };
}

/**
 * Whether a lock's holder is certainly gone. On this host and boot: its pid is
 * dead, or alive but started at another time (pid reuse, a restarted
 * container reusing the pid). This process's own pid with its own start time
 * is a live holder (another store in this process). From another boot: gone.
 * From another host, whose processes cannot be checked: gone once the lock's
 * heartbeat (its mtime) is older than FOREIGN_LOCK_STALE_MS.
 */
export function isOwnerGone(owner: LockOwner, lockMtimeMs: number, now = Date.now()): boolean {
  const here = currentOwner('');
  const heartbeatStale = now - lockMtimeMs > FOREIGN_LOCK_STALE_MS;
  if (owner.hostname !== here.hostname) return heartbeatStale;
  if (owner.bootId !== undefined && here.bootId !== undefined && owner.bootId !== here.bootId) return true;
  if (!pidAlive(owner.pid)) return true;
  const startTime = processStartTime(owner.pid);
  if (owner.startTime !== undefined && startTime !== undefined) return owner.startTime !== startTime;
  // No start times to compare (not Linux): a live pid counts as the owner, unless its heartbeat stopped.
  return heartbeatStale;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

let bootId: string | undefined | null = null;
function readBootId(): string | undefined {
  if (bootId === null) {
    try {
      bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    } catch {
      bootId = undefined;
    }
  }
  return bootId;
}

/** Field 22 of /proc/<pid>/stat (after the parenthesised command name, which may hold spaces). */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}
