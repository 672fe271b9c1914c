import { REQUEST_STAGE, type Host, type Plugin } from '@ctxhost/core';
import { applyCompaction } from './apply-compaction.js';
import type { CompactionStrategy } from './compaction-strategy.js';

export const COMPACTION_PLUGIN = 'compaction';

export interface CompactionPluginOptions {
  /** Runs on every outgoing request: compacts what the model sees, leaves the session as it is. */
  before?: CompactionStrategy;
  /** Runs when the session goes idle: compacts the session's projection so the next turn starts smaller. */
  after?: CompactionStrategy;
  /** Plugin name (for `disabled_hooks` and tap names). Default `compaction`. */
  name?: string;
}

/**
 * Microsoft Agent Framework's CompactionProvider fitted to the host.
 * - `beforeRequest` (AsyncSeriesWaterfallHook, stage `REQUEST_STAGE.engine`): returns the
 *   request with its messages replaced by the `before` projection, or the request unchanged.
 * - `sessionIdle` (AsyncSeriesHook): under the session's lock, runs `after` on the
 *   session's projection and stores the result with `session.applyCompaction` (which
 *   emits `compaction.completed`); the history itself is never rewritten.
 * Both use the host's cached token counter.
 */
export function createCompactionPlugin(options: CompactionPluginOptions): Plugin {
  const name = options.name ?? COMPACTION_PLUGIN;
  return {
    name,
    apply(host: Host) {
      const { before, after } = options;
      if (before !== undefined) {
        host.hooks.beforeRequest.tapPromise({ name, stage: REQUEST_STAGE.engine }, async (request, context) => {
          const result = await applyCompaction(request.messages, before, {
            counter: host.counter,
            redaction: host.config.redaction,
            ...(context.signal === undefined ? {} : { signal: context.signal }),
          });
          return result.changed ? { ...request, messages: result.messages } : request;
        });
      }
      if (after !== undefined) {
        host.hooks.sessionIdle.tapPromise(name, async ({ sessionId }) => {
          const session = await host.session(sessionId);
          await session.exclusive(async () => {
            const result = await applyCompaction(session.messages().slice(), after, {
              counter: host.counter,
              redaction: host.config.redaction,
            });
            if (result.changed) await session.applyCompaction(result.messages, result.report);
          });
        });
      }
    },
  };
}
