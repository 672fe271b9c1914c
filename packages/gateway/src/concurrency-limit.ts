/** At most `limit` requests at once; `tryAcquire` says no rather than queue (the caller is told to retry). */
export interface ConcurrencyLimit {
  tryAcquire(): (() => void) | undefined;
  readonly active: number;
  /** Resolves when nothing is in flight. */
  idle(): Promise<void>;
}

export function createConcurrencyLimit(limit: number): ConcurrencyLimit {
  let active = 0;
  let waiters: (() => void)[] = [];
  return {
    tryAcquire() {
      if (active >= limit) return undefined;
      active++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        active--;
        if (active === 0) {
          const done = waiters;
          waiters = [];
          for (const resolve of done) resolve();
        }
      };
    },
    get active() {
      return active;
    },
    idle: () => (active === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
  };
}
