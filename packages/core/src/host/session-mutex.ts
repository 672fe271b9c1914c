import { holdsLock, runHoldingLock } from './lock-context.js';

/**
 * Serializes a session's operations. Re-entrant within one async context, so a
 * recovery that holds the lock (`session.exclusive`) can still append and update.
 */
export interface SessionMutex {
  run<T>(fn: () => Promise<T>): Promise<T>;
  /** True when the calling context holds this lock. */
  readonly held: boolean;
}

export function createSessionMutex(): SessionMutex {
  const token = Symbol('session-lock');
  let tail: Promise<void> = Promise.resolve();
  return {
    get held() {
      return holdsLock(token);
    },
    async run(fn) {
      if (holdsLock(token)) return fn();
      const previous = tail;
      let release!: () => void;
      tail = new Promise<void>((resolve) => (release = resolve));
      await previous;
      try {
        return await runHoldingLock(token, fn);
      } finally {
        release();
      }
    },
  };
}
