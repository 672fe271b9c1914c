import { CORE_ERROR_CODES, CtxhostError } from '../errors.js';
import type { HostTasks } from './host.js';
import { runOutsideLocks } from './lock-context.js';

interface TrackedTask {
  name: string;
  sessionId: string | undefined;
  controller: AbortController;
  done: Promise<unknown>;
}

export interface TrackedHostTasks extends HostTasks {
  /** Aborts every task of a session (on `session.deleted`). */
  abortSession(sessionId: string): void;
  /** Whether a task of this session is still running (the session is not idle then). */
  hasSessionTasks(sessionId: string): boolean;
  /** Names of the tasks still running. */
  readonly running: readonly string[];
  /** Aborts everything and waits for it to settle; later `run` calls are refused. */
  dispose(): Promise<void>;
}

/** The host's record of background work hooks start, so `dispose()` leaves no timer behind. */
export function createHostTasks(): TrackedHostTasks {
  const tasks = new Set<TrackedTask>();
  let disposed = false;

  return {
    get running() {
      return [...tasks].map((task) => task.name);
    },
    run(name, sessionId, fn) {
      if (disposed)
        throw new CtxhostError(CORE_ERROR_CODES.hostDisposed, `cannot start task "${name}": the host was disposed`);
      const controller = new AbortController();
      const promise = runOutsideLocks(() => fn(controller.signal));
      const task: TrackedTask = { name, sessionId, controller, done: promise };
      tasks.add(task);
      const forget = () => tasks.delete(task);
      promise.then(forget, forget);
      return promise;
    },
    delay(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal.aborted) return reject(abortError(signal));
        const timer = setTimeout(() => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        }, ms);
        const onAbort = () => {
          clearTimeout(timer);
          reject(abortError(signal));
        };
        signal.addEventListener('abort', onAbort, { once: true });
      });
    },
    hasSessionTasks(sessionId) {
      for (const task of tasks) if (task.sessionId === sessionId) return true;
      return false;
    },
    abortSession(sessionId) {
      for (const task of tasks)
        if (task.sessionId === sessionId) task.controller.abort(new Error(`session ${sessionId} was deleted`));
    },
    async dispose() {
      disposed = true;
      for (const task of tasks) task.controller.abort(new Error('the host was disposed'));
      await Promise.allSettled([...tasks].map((task) => task.done));
    },
  };
}

function abortError(signal: AbortSignal): Error {
  const error = new Error(signal.reason instanceof Error ? signal.reason.message : 'aborted', {
    cause: signal.reason,
  });
  error.name = 'AbortError';
  return error;
}

/** True for the errors `delay` and aborted fetches reject with. */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}
