import type { Host } from '../host/host.js';
import type { Message } from '../model/message.js';
import type { ModelRequest } from '../model/model-client.js';
import { isRecoverableOverflow, normalizeProviderError } from '../model/normalize-provider-error.js';
import { ContextWindowStop } from './context-window-stop.js';
import type { ReportOnce } from './report-once.js';
import type { StatelessView } from './view-pool.js';
import type { ProviderError } from '../model/provider-error.js';

/** Core's shared parser on the error as thrown: any provider's wording of an overflow. */
function sharedOverflowOf(error: unknown): ProviderError | undefined {
  return isRecoverableOverflow(error) ? normalizeProviderError(error) : undefined;
}

/** How a turn ended: `exhausted` when the cascade gave up (the view is dropped: its recovery state says "do not retry"). */
export interface RecoveryOutcome<T> {
  value: T;
  exhausted: boolean;
}

export interface StatelessRecovery {
  /**
   * The cascade on `view` for a framework that sends and retries by itself: each `resend` first stores
   * the smaller projection (`rebuild`), then asks `resend` (the framework's retry) how it went.
   */
  recoverOnly<S, P>(
    view: StatelessView<S, P>,
    error: unknown,
    rebuild: () => Promise<ModelRequest>,
    resend: (signal: AbortSignal | undefined) => Promise<boolean>,
  ): Promise<void>;
  /** Reports an overflow to the cascade running on `view` (a retry it asked for overflowed again). */
  overflowAgain<S, P>(view: StatelessView<S, P>, error: unknown): Promise<void>;
  run<S, P, T>(
    view: StatelessView<S, P>,
    first: readonly Message[],
    send: (messages: readonly Message[] | undefined) => Promise<T>,
    rebuild: () => Promise<ModelRequest>,
  ): Promise<RecoveryOutcome<T>>;
}

/** A view's recovery under way: what the `resend` tap runs. */
interface Attempt {
  (signal?: AbortSignal): Promise<boolean>;
}

/**
 * Sends a stateless turn and, on an overflow, drives the host's recovery cascade on the turn's own
 * view (`session.error`, then `session.idle`; auto-compact shrinks the view and asks for a `resend`,
 * which rebuilds the request and sends again). Concurrent turns of one conversation have views of
 * their own, so each one that overflows recovers. One `resend` tap per host serves every view.
 */
export function createStatelessRecovery(
  host: Host,
  name: string,
  report: ReportOnce,
  overflowOf: (error: unknown) => ProviderError | undefined = sharedOverflowOf,
): StatelessRecovery {
  const attempts = new Map<string, Attempt>();
  host.hooks.resend.tapPromise(`stateless-${name}`, async ({ sessionId, signal }) => {
    const attempt = attempts.get(sessionId);
    return attempt === undefined ? undefined : attempt(signal);
  });

  return {
    async recoverOnly(view, error, rebuild, resend) {
      attempts.set(view.id, async (signal) => {
        try {
          await rebuild();
        } catch (rebuildError) {
          report('recovery', 'the recovery could not rebuild the request', rebuildError);
          return false;
        }
        return resend(signal);
      });
      try {
        await host.emit('session.error', { sessionId: view.id, error: overflowOf(error)!, raw: error });
        await host.emit('session.idle', { sessionId: view.id });
      } catch (cascadeError) {
        report('recovery', 'the recovery cascade failed', cascadeError);
      } finally {
        attempts.delete(view.id);
      }
    },
    async overflowAgain(view, error) {
      const overflow = overflowOf(error);
      if (overflow !== undefined) await host.emit('session.error', { sessionId: view.id, error: overflow, raw: error });
    },
    async run(view, first, send, rebuild) {
      let value: { result: Awaited<ReturnType<typeof send>> } | undefined;
      let last: unknown;
      try {
        value = { result: await send(first) };
      } catch (error) {
        if (overflowOf(error) === undefined) throw error;
        last = error;
      }
      let exhausted = false;
      if (value === undefined) {
        const attempt: Attempt = async () => {
          let request: ModelRequest;
          try {
            request = await rebuild();
          } catch (error) {
            report('recovery', 'the recovery could not rebuild the request', error);
            return false;
          }
          try {
            value = { result: await send(request.messages) };
            return true;
          } catch (error) {
            last = error;
            if (isRecoverableOverflow(error))
              await host.emit('session.error', {
                sessionId: view.id,
                error: normalizeProviderError(error),
                raw: error,
              });
            return false;
          }
        };
        attempts.set(view.id, attempt);
        try {
          await host.emit('session.error', { sessionId: view.id, error: overflowOf(last)!, raw: last });
          await host.emit('session.idle', { sessionId: view.id });
        } catch (error) {
          report('recovery', 'the recovery cascade failed', error);
        } finally {
          attempts.delete(view.id);
        }
        if (value === undefined) {
          exhausted = true;
          if (ContextWindowStop.isInstance(last))
            return { value: last.result as Awaited<ReturnType<typeof send>>, exhausted };
          throw last;
        }
      }
      return { value: value.result, exhausted };
    },
  };
}
