import type { HostLogger } from '@ctxhost/core';
import type { OpencodeActions } from './opencode-actions.js';

type Toast = Parameters<OpencodeActions['toast']>[0];

export interface ToastSender {
  /** Queues the toast and returns at once; toasts reach opencode in the order sent. */
  send(toast: Toast): void;
  /** Resolves when every toast sent so far has been answered or has failed. */
  drained(): Promise<void>;
}

/**
 * Sends the hooks' toasts to opencode's TUI one after another, beside the
 * hooks rather than inside them: a toast call that is slow or never answered
 * (opencode busy, its TUI gone) must not hold the event queue that mirrors
 * the session, or the next turn's usage, toast and compaction wait behind it.
 * The first failure is logged as a warning, later ones at debug level.
 */
export function createToastSender(actions: Pick<OpencodeActions, 'toast'>, logger: HostLogger): ToastSender {
  let queue: Promise<void> = Promise.resolve();
  let warned = false;
  const failed = (toast: Toast, error: unknown) => {
    const data = { title: toast.title, error: String(error) };
    if (warned) return logger.debug('ctxhost could not show a toast in opencode', data);
    warned = true;
    logger.warn('ctxhost could not show a toast in opencode (later failures are logged at debug level)', data);
  };
  return {
    send(toast) {
      queue = queue.then(() => actions.toast(toast)).catch((error: unknown) => failed(toast, error));
    },
    drained: () => queue,
  };
}
