import type { Host, Plugin } from '@ctxhost/core';
import type { PostgresStore } from './postgres-store.js';
import type { PostgresStoreNotification } from './store-notifications.js';

export const POSTGRES_EVENTS_PLUGIN_NAME = 'store-postgres-events';

export interface PostgresEventsPluginOptions {
  /** Which remote events to re-emit into the host (default both). */
  events?: readonly PostgresStoreNotification['type'][];
}

export interface PostgresEventsPlugin extends Plugin {
  /** Resolves once the host is listening (after `apply`); rejects if LISTEN failed. */
  readonly ready: Promise<void>;
}

/**
 * Re-emits into this host the `session.deleted` and `compaction.completed`
 * that OTHER workers caused on the shared store, so every hook drops (or
 * re-arms) its per-session state in every process. This worker's own events
 * are not repeated: the host already emitted them. Listening stops when the
 * store closes (the host closes its store on dispose).
 */
export function createPostgresEventsPlugin(
  store: PostgresStore,
  options: PostgresEventsPluginOptions = {},
): PostgresEventsPlugin {
  const wanted = new Set(options.events ?? ['session.deleted', 'compaction.completed']);
  let markReady!: (value: Promise<void>) => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  async function reemit(host: Host, notification: PostgresStoreNotification): Promise<void> {
    if (!notification.remote || !wanted.has(notification.type)) return;
    try {
      if (notification.type === 'session.deleted')
        await host.emit('session.deleted', { sessionId: notification.sessionId });
      else await host.emit('compaction.completed', { sessionId: notification.sessionId, report: notification.report });
    } catch (error) {
      host.logger.warn(`${POSTGRES_EVENTS_PLUGIN_NAME}: could not re-emit a remote ${notification.type}`, {
        sessionId: notification.sessionId,
        error: String(error),
      });
    }
  }

  return {
    name: POSTGRES_EVENTS_PLUGIN_NAME,
    ready,
    apply(host) {
      const subscribed = store.subscribe((notification) => reemit(host, notification)).then(() => undefined);
      subscribed.catch((error: unknown) =>
        host.logger.error(`${POSTGRES_EVENTS_PLUGIN_NAME}: not listening for other workers' events`, {
          error: String(error),
        }),
      );
      markReady(subscribed);
    },
  };
}
