import { AsyncLocalStorage } from 'node:async_hooks';
import type { CompactionReport, Host } from '@ctxhost/core';
import type { ContextManagementOptions, WrapperCompactionEvent } from './wrapper-options.js';

/** One call of the wrapper, as its hook taps see it. */
interface CallContext {
  model: string;
  /** The API refused this call's request once: what is compacted from then on is a recovery. */
  overflowed: boolean;
}

export interface WrapperEvents {
  /** Runs `work` as one call of this wrapper: compactions and learned windows inside it are this wrapper's. */
  within<T>(model: string, work: () => Promise<T>): Promise<T>;
  /** Taps the host once (on the first call). */
  attach(host: Host): void;
}

/**
 * The old `onCompaction` and `onWindowLearned` callbacks, read from the host's own events: a
 * compaction (`compaction.completed`) or a window the recovery adopted (`session.error`, after the
 * cascade's tap) that happens inside one of this wrapper's calls. Other integrations on the same host
 * are not reported.
 */
export function createWrapperEvents(
  name: string,
  options: Pick<ContextManagementOptions, 'onCompaction' | 'onWindowLearned'>,
): WrapperEvents {
  const calls = new AsyncLocalStorage<CallContext>();
  const windows = new Map<string, number>();
  const attached = new WeakSet<Host>();
  return {
    within: (model, work) => calls.run({ model, overflowed: false }, work),
    attach(host) {
      if (attached.has(host) || (options.onCompaction === undefined && options.onWindowLearned === undefined)) return;
      attached.add(host);
      host.hooks.sessionError.tapPromise(name, async () => {
        const call = calls.getStore();
        if (call !== undefined) call.overflowed = true;
      });
      if (options.onCompaction !== undefined) {
        const onCompaction = options.onCompaction;
        host.hooks.compactionCompleted.tapPromise(name, async ({ report }) => {
          const call = calls.getStore();
          if (call !== undefined && report.engine !== 'stateless-cache') onCompaction(toEvent(report, call.overflowed));
        });
      }
      if (options.onWindowLearned !== undefined) {
        const onWindowLearned = options.onWindowLearned;
        // Around the recovery's own tap: the window before it ran, and the one it adopted.
        const before = new Map<string, number | undefined>();
        host.hooks.sessionError.tapPromise({ name, stage: -1000 }, async ({ sessionId }) => {
          if (calls.getStore() !== undefined) before.set(sessionId, (await host.session(sessionId)).contextWindow);
        });
        host.hooks.sessionError.tapPromise({ name, stage: 1000 }, async ({ sessionId }) => {
          const call = calls.getStore();
          if (call === undefined || !before.has(sessionId)) return;
          const previous = before.get(sessionId);
          before.delete(sessionId);
          const adopted = (await host.session(sessionId)).contextWindow;
          const known = windows.get(call.model);
          if (adopted === undefined || adopted === previous || (known !== undefined && adopted >= known)) return;
          windows.set(call.model, adopted);
          onWindowLearned({ model: call.model, contextWindow: adopted, previous });
        });
      }
    },
  };
}

function toEvent(report: CompactionReport, overflowed: boolean): WrapperCompactionEvent {
  const summarized = report.summary?.messagesCovered ?? 0;
  return {
    tokensBefore: report.tokensBefore,
    tokensAfter: report.tokensAfter,
    reason: overflowed || report.reason === 'recovery' ? 'overflow' : 'preflight',
    messagesBefore: report.messagesBefore,
    messagesAfter: report.messagesAfter,
    dropped: Math.max(0, report.messagesBefore - report.messagesAfter - Math.max(0, summarized - 1)),
    summarized,
    notes: [...(report.steps ?? []), ...(report.notes ?? [])],
  };
}
