import { AsyncLocalStorage } from 'node:async_hooks';

/** The session locks the current async context holds (for re-entrancy). */
const heldLocks = new AsyncLocalStorage<ReadonlySet<symbol>>();

export function holdsLock(token: symbol): boolean {
  return heldLocks.getStore()?.has(token) ?? false;
}

export function runHoldingLock<T>(token: symbol, fn: () => Promise<T>): Promise<T> {
  const held = new Set(heldLocks.getStore());
  held.add(token);
  return heldLocks.run(held, fn);
}

/** Runs `fn` as if no lock were held: background work must queue for a lock, not inherit it. */
export function runOutsideLocks<T>(fn: () => Promise<T>): Promise<T> {
  return heldLocks.run(new Set(), fn);
}
