/** When a store that failed is tried again: the first probe `firstMs` after the failure, then at doubling intervals up to `maxMs`. */
export interface StoreRetry {
  firstMs: number;
  maxMs: number;
}

export const STORE_RETRY: StoreRetry = { firstMs: 5_000, maxMs: 60_000 };

export interface StoreBreaker {
  /** Whether a request may use the store now: false while it is known to fail (a probe may then start, unawaited). */
  allows(): boolean;
  /** A request's call to the store failed: requests stop using it until a probe succeeds. */
  failed(): void;
}

/**
 * Keeps requests from waiting on a store that is known to fail. A store that stopped answering (a
 * partition, a server that accepts and never replies) holds each call for its own timeouts, tens of
 * seconds: after one failure, requests go on without the store at once, and a probe that no request
 * waits for asks it again now and then; the first probe it answers lets requests use it again.
 */
export function createStoreBreaker(
  probe: () => Promise<unknown>,
  retry: StoreRetry = STORE_RETRY,
  now: () => number = Date.now,
): StoreBreaker {
  let down: { retryAt: number; waitMs: number; probing: boolean } | undefined;

  const startProbe = (state: NonNullable<typeof down>): void => {
    state.probing = true;
    probe().then(
      () => {
        if (down === state) down = undefined;
      },
      () => {
        state.probing = false;
        state.waitMs = Math.min(state.waitMs * 2, retry.maxMs);
        state.retryAt = now() + state.waitMs;
      },
    );
  };

  return {
    allows() {
      if (down === undefined) return true;
      if (!down.probing && now() >= down.retryAt) startProbe(down);
      return false;
    },
    failed() {
      if (down !== undefined) return;
      down = { retryAt: now() + retry.firstMs, waitMs: retry.firstMs, probing: false };
    },
  };
}
