import { holdsLock, runHoldingLock } from './lock-context.js';

/**
 * Serializes a session's operations. Re-entrant within one async context, so a
 * recovery that holds the lock (`session.exclusive`) can still append and update.
 */
export interface SessionMutex {
  run<T>(fn: () => Promise<T>): Promise<T>;
  /** True when the calling context holds this lock. */
  readonly held: boolean;
  /** True while any caller holds the lock or waits for it. */
  readonly busy: boolean;
}

export function createSessionMutex(): SessionMutex {
  const token = Symbol('session-lock');
  let tail: Promise<void> = Promise.resolve();
  let pending = 0;
  return {
    get held() {
      return holdsLock(token);
    },
    get busy() {
      return pending > 0;
    },
    async run(fn) {
      if (holdsLock(token)) return fn();
      const previous = tail;
      let release!: () => void;
      tail = new Promise<void>((resolve) => (release = resolve));
      pending += 1;
      await previous;
      try {
        return await runHoldingLock(token, fn);
      } finally {
        pending -= 1;
        release();
      }
    },
  };
}
