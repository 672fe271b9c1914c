/**
 * How long a re-send the cascade asked for may take to reach the model before it
 * counts as not made: Mastra retries at once, unless the agent has no
 * `maxProcessorRetries` (or it is used up), and then it never comes.
 */
export const RETRY_GRACE_MS = 30_000;

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

/** One session's recovery: the host's cascade on one side, Mastra's retry of the failed step on the other. */
interface Recovery {
  /** Settles when the cascade asks for a re-send (true) or finishes without one (false). */
  resendAsked: Deferred<boolean>;
  /** The re-send in flight: settled by the retried call (answered or not). */
  outcome: Deferred<boolean> | undefined;
  graceTimer: ReturnType<typeof setTimeout> | undefined;
}

export interface RecoveryHandshake {
  /**
   * An overflow reached `processAPIError` (the caller has emitted `session.error`):
   * starts the cascade with `runCascade`, or, when this was the re-send of a running
   * one, lets it take its next step. Resolves to whether Mastra should retry the step.
   */
  overflowed(sessionId: string, runCascade: () => Promise<void>): Promise<boolean>;
  /** The `resend` tap: `undefined` for a session not in recovery, else whether the retried step answered. */
  resend(sessionId: string, signal: AbortSignal | undefined): Promise<boolean> | undefined;
  /** The retried step is on its way to the model. */
  retrying(sessionId: string): void;
  /** The retried step answered (true) or failed with something the cascade cannot help (false). */
  settle(sessionId: string, answered: boolean): void;
}

/**
 * Mastra retries a failed step when `processAPIError` says so, after it returns;
 * the host's cascade wants to be told whether its re-send worked before it says
 * "recovered" or tries its next step. This joins the two: the cascade runs beside
 * the step, its `resend` lets `processAPIError` return `retry: true`, and the
 * retried step's outcome answers the `resend`.
 */
export function createRecoveryHandshake(onRetryNotMade: (sessionId: string) => void): RecoveryHandshake {
  const recoveries = new Map<string, Recovery>();

  const settle = (recovery: Recovery, answered: boolean): void => {
    clearTimeout(recovery.graceTimer);
    recovery.graceTimer = undefined;
    const outcome = recovery.outcome;
    recovery.outcome = undefined;
    outcome?.resolve(answered);
  };

  return {
    overflowed(sessionId, runCascade) {
      const running = recoveries.get(sessionId);
      if (running?.outcome !== undefined) {
        running.resendAsked = deferred();
        settle(running, false);
        return running.resendAsked.promise;
      }
      const recovery: Recovery = { resendAsked: deferred(), outcome: undefined, graceTimer: undefined };
      recoveries.set(sessionId, recovery);
      void runCascade()
        .catch(() => undefined)
        .finally(() => {
          if (recoveries.get(sessionId) === recovery) recoveries.delete(sessionId);
          settle(recovery, false);
          recovery.resendAsked.resolve(false);
        });
      return recovery.resendAsked.promise;
    },

    resend(sessionId, signal) {
      const recovery = recoveries.get(sessionId);
      if (recovery === undefined) return undefined;
      const outcome = deferred<boolean>();
      recovery.outcome = outcome;
      recovery.graceTimer = setTimeout(() => {
        onRetryNotMade(sessionId);
        settle(recovery, false);
      }, RETRY_GRACE_MS);
      recovery.graceTimer.unref?.();
      signal?.addEventListener('abort', () => settle(recovery, false), { once: true });
      recovery.resendAsked.resolve(true);
      return outcome.promise;
    },

    retrying(sessionId) {
      const recovery = recoveries.get(sessionId);
      if (recovery === undefined) return;
      clearTimeout(recovery.graceTimer);
      recovery.graceTimer = undefined;
    },

    settle(sessionId, answered) {
      const recovery = recoveries.get(sessionId);
      if (recovery !== undefined) settle(recovery, answered);
    },
  };
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}
