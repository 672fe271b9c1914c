import {
  formatPercent,
  formatTokens,
  measureContextUsage,
  readHookSection,
  type ContextUsage,
  type Host,
  type Plugin,
  type Session,
} from '@ctxhost/core';
import { MonitorConfigSchema, type MonitorConfig } from './config.js';
import { createThresholdLatch, type ThresholdLatch } from './threshold-latch.js';

export const CONTEXT_WINDOW_MONITOR = 'context-window-monitor';

export interface ContextWindowMonitorOptions {
  /** Overrides `hooks.context-window-monitor.warn_at`. */
  warnAt?: number;
  /** Overrides `hooks.context-window-monitor.critical_at`. */
  criticalAt?: number;
}

interface MonitorState {
  warn: ThresholdLatch;
  critical: ThresholdLatch;
  unknownWindowReported: boolean;
}

/**
 * Watches context usage after each assistant message and tells the person
 * (toasts, never the model) at 70% (there is room left) and 80% (time to
 * make room). Each threshold fires once per arming and re-arms after a
 * compaction brings usage back under it.
 */
export function createContextWindowMonitor(options: ContextWindowMonitorOptions = {}): Plugin {
  return {
    name: CONTEXT_WINDOW_MONITOR,
    apply(host) {
      const config = resolveThresholds(host, options);
      const states = new Map<string, MonitorState>();
      const stateOf = (sessionId: string): MonitorState => {
        let state = states.get(sessionId);
        if (state === undefined) {
          state = {
            warn: createThresholdLatch(config.warn_at),
            critical: createThresholdLatch(config.critical_at),
            unknownWindowReported: false,
          };
          states.set(sessionId, state);
        }
        return state;
      };

      host.hooks.messageUpdated.tapPromise(CONTEXT_WINDOW_MONITOR, async ({ sessionId, message }) => {
        if (message.role !== 'assistant') return;
        const session = await host.session(sessionId);
        await checkUsage(host, session, stateOf(sessionId));
      });

      host.hooks.compactionCompleted.tapPromise(CONTEXT_WINDOW_MONITOR, async ({ sessionId }) => {
        const state = states.get(sessionId);
        if (state === undefined) return;
        const usage = measureContextUsage(await host.session(sessionId), host.config);
        if (!usage.known) return;
        state.warn.rearm(usage.ratio);
        state.critical.rearm(usage.ratio);
      });

      host.hooks.sessionDeleted.tapPromise(CONTEXT_WINDOW_MONITOR, async ({ sessionId }) => {
        states.delete(sessionId);
      });
    },
  };
}

function resolveThresholds(host: Host, options: ContextWindowMonitorOptions): MonitorConfig {
  const section = readHookSection(host.config, CONTEXT_WINDOW_MONITOR, MonitorConfigSchema);
  return MonitorConfigSchema.parse({
    warn_at: options.warnAt ?? section.warn_at,
    critical_at: options.criticalAt ?? section.critical_at,
  });
}

async function checkUsage(host: Host, session: Session, state: MonitorState): Promise<void> {
  const usage = measureContextUsage(session, host.config);
  if (!usage.known) {
    if (state.unknownWindowReported) return;
    state.unknownWindowReported = true;
    await host.toast({
      sessionId: session.id,
      level: 'info',
      title: 'Context window unknown',
      text: `The model's context window is not known, so ${CONTEXT_WINDOW_MONITOR} cannot warn for this session: the model registry does not know the model. Set model.context_length, or add the model under models: with its context_window, in the ctxhost config; it is learned from the first overflow error that states the limit.`,
      source: CONTEXT_WINDOW_MONITOR,
    });
    return;
  }
  if (state.critical.cross(usage.ratio)) {
    state.warn.cross(usage.ratio);
    await host.toast({
      sessionId: session.id,
      level: 'warning',
      title: 'Context window filling up',
      text: criticalText(usage),
      source: CONTEXT_WINDOW_MONITOR,
    });
    return;
  }
  if (state.warn.cross(usage.ratio)) {
    await host.toast({
      sessionId: session.id,
      level: 'info',
      title: 'Context usage',
      text: reassuringText(usage),
      source: CONTEXT_WINDOW_MONITOR,
    });
  }
}

type KnownUsage = Extract<ContextUsage, { known: true }>;

function reassuringText(usage: KnownUsage): string {
  const left = usage.window - usage.tokens;
  return `${formatPercent(usage.ratio)} of the ${formatTokens(usage.window)}-token window is in use (${formatTokens(usage.tokens)} tokens, ${usage.source}); ${formatTokens(left)} tokens are still free, so there is no need to cut work short.`;
}

function criticalText(usage: KnownUsage): string {
  // What is true now, never a promise: whether a compaction runs depends on hooks this monitor does not know about.
  const left = Math.max(0, usage.window - usage.tokens);
  return `${formatPercent(usage.ratio)} of the ${formatTokens(usage.window)}-token window is in use (${formatTokens(usage.tokens)} tokens, ${usage.source}); ${formatTokens(left)} tokens are left before it overflows. Summarizing old tool outputs now keeps more detail than a compaction later.`;
}
