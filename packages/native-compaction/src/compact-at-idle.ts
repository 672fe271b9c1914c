import { measureContextUsage, type Plugin } from '@ctxhost/core';

export const COMPACT_AT_IDLE = 'native-compaction-at-idle';

export interface CompactAtIdleOptions {
  /** Fraction of the window past which the idle session is compacted (default 0.6, the native engine's trigger). */
  trigger?: number;
}

/**
 * Runs the session's engine (the native engine, usually) while the agent
 * waits for its user: on `session.idle` (AsyncSeriesHook), a session whose
 * prompt (last reported usage plus what was added since) has passed `trigger`
 * of its window is compacted through `host.compact` (reason `preemptive`), so
 * the provider's compaction pass runs ahead of need and the next request
 * starts from the short prompt. A failed or skipped pass changes nothing; the
 * request path still compacts when it must.
 */
export function createCompactAtIdle(options: CompactAtIdleOptions = {}): Plugin {
  const trigger = options.trigger ?? 0.6;
  return {
    name: COMPACT_AT_IDLE,
    apply(host) {
      host.hooks.sessionIdle.tapPromise(COMPACT_AT_IDLE, async ({ sessionId }) => {
        const session = await host.session(sessionId);
        const usage = measureContextUsage(session, host.config);
        if (!usage.known || usage.ratio < trigger) return;
        const outcome = await host.compact(sessionId, { reason: 'preemptive' });
        if (outcome.status !== 'completed')
          host.logger.debug(`native compaction at idle: ${outcome.status}`, { sessionId });
      });
    },
  };
}
