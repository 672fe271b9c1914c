/** How long a session may sit unused before the host lets go of it. */
export const SESSION_RELEASE_DEFAULTS = { idleSeconds: 600 } as const;

export interface IdleSessions {
  /** The session was used now. */
  touch(sessionId: string): void;
  forget(sessionId: string): void;
  /** Releases every session unused for the idle time; returns those released. */
  sweep(now?: number): Promise<string[]>;
  stop(): void;
}

export interface IdleSessionsOptions {
  /** 0: never release. */
  idleMs: number;
  /** Lets go of one session; false when it is busy (an operation or a task under way) and was kept. */
  release(sessionId: string): Promise<boolean>;
  onError(sessionId: string, error: unknown): void;
}

/**
 * Tracks when each open session was last used and, on a timer that never
 * keeps the process alive, hands the idle ones to `release`, so a long-lived
 * host holds file handles, locks and memory only for sessions in use.
 */
export function createIdleSessions(options: IdleSessionsOptions): IdleSessions {
  const lastUsed = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;

  function schedule(): void {
    if (timer !== undefined || options.idleMs <= 0) return;
    timer = setInterval(() => void idle.sweep(), Math.max(50, Math.min(options.idleMs / 2, 60_000)));
    timer.unref();
  }

  const idle: IdleSessions = {
    touch(sessionId) {
      lastUsed.set(sessionId, Date.now());
      schedule();
    },
    forget(sessionId) {
      lastUsed.delete(sessionId);
    },
    async sweep(now = Date.now()) {
      const due = [...lastUsed]
        .filter(([, at]) => options.idleMs > 0 && now - at >= options.idleMs)
        .map(([sessionId]) => sessionId);
      const released: string[] = [];
      for (const sessionId of due) {
        if (now - (lastUsed.get(sessionId) ?? now) < options.idleMs) continue;
        try {
          if (await options.release(sessionId)) {
            released.push(sessionId);
            lastUsed.delete(sessionId);
          }
        } catch (error) {
          options.onError(sessionId, error);
        }
      }
      return released;
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
  return idle;
}
