import {
  measureContextUsage,
  readHookSection,
  REQUEST_STAGE,
  runCompaction,
  type ContextUsage,
  type Host,
  type ModelRequest,
  type Plugin,
  type Session,
} from '@ctxhost/core';
import { PreemptiveConfigSchema, type PreemptiveConfig } from './config.js';
import { createPreemptiveNotice } from './preemptive-notice.js';

export const PREEMPTIVE_COMPACTION = 'preemptive-compaction';

export interface PreemptiveCompactionOptions {
  mode?: PreemptiveConfig['mode'];
  threshold?: number;
}

interface PreemptiveState {
  armed: boolean;
  /** The usage that crossed the threshold, waiting for the next request. */
  pending: Extract<ContextUsage, { known: true }> | undefined;
}

/**
 * At 80% of the window (once per arming), before the next request: appends a
 * notice suggesting the agent make room (`notice`, oh-my-opencode's behaviour), or
 * compacts with the active engine (`compact`). Re-arms after a compaction
 * brings usage back under the threshold.
 */
export function createPreemptiveCompaction(options: PreemptiveCompactionOptions = {}): Plugin {
  return {
    name: PREEMPTIVE_COMPACTION,
    apply(host) {
      const config = resolveConfig(host, options);
      const states = new Map<string, PreemptiveState>();
      const stateOf = (id: string): PreemptiveState => {
        let state = states.get(id);
        if (state === undefined) {
          state = { armed: true, pending: undefined };
          states.set(id, state);
        }
        return state;
      };

      host.hooks.messageUpdated.tapPromise(PREEMPTIVE_COMPACTION, async ({ sessionId, message }) => {
        if (message.role !== 'assistant') return;
        const usage = measureContextUsage(await host.session(sessionId), host.config);
        const state = stateOf(sessionId);
        if (!usage.known || !state.armed || usage.ratio < config.threshold) return;
        state.armed = false;
        state.pending = usage;
      });

      host.hooks.beforeRequest.tapPromise(
        { name: PREEMPTIVE_COMPACTION, stage: REQUEST_STAGE.preemptive },
        async (request) => {
          const state = states.get(request.sessionId);
          if (state?.pending === undefined) return request;
          const usage = state.pending;
          state.pending = undefined;
          const session = await host.session(request.sessionId);
          return config.mode === 'notice'
            ? appendNotice(session, request, usage)
            : compact(host, session, request, usage.window);
        },
      );

      host.hooks.compactionCompleted.tapPromise(PREEMPTIVE_COMPACTION, async ({ sessionId }) => {
        const state = states.get(sessionId);
        if (state === undefined || state.armed) return;
        const usage = measureContextUsage(await host.session(sessionId), host.config);
        if (usage.known && usage.ratio < config.threshold) {
          state.armed = true;
          state.pending = undefined;
        }
      });

      host.hooks.sessionDeleted.tapPromise(PREEMPTIVE_COMPACTION, async ({ sessionId }) => {
        states.delete(sessionId);
      });
    },
  };
}

function resolveConfig(host: Host, options: PreemptiveCompactionOptions): PreemptiveConfig {
  const section = readHookSection(host.config, PREEMPTIVE_COMPACTION, PreemptiveConfigSchema);
  return PreemptiveConfigSchema.parse({
    mode: options.mode ?? section.mode,
    threshold: options.threshold ?? section.threshold,
  });
}

async function appendNotice(
  session: Session,
  request: ModelRequest,
  usage: Extract<ContextUsage, { known: true }>,
): Promise<ModelRequest> {
  const notice = createPreemptiveNotice(usage);
  await session.append(notice);
  // A request built on `session.messages()` (a live view of the session) already shows the appended notice.
  const shown = request.messages.some((message) => message.id === notice.id);
  return shown
    ? { ...request, messages: [...request.messages] }
    : { ...request, messages: [...request.messages, notice] };
}

async function compact(
  host: Host,
  session: Session,
  request: ModelRequest,
  contextWindow: number,
): Promise<ModelRequest> {
  // Through core's runCompaction, so `compaction.before` (instructions, veto) and the started/failed events apply here too.
  const outcome = await runCompaction(host, session, { reason: 'preemptive', contextWindow });
  if (outcome.status === 'failed') throw new Error(outcome.error);
  return outcome.status === 'completed' ? { ...request, messages: outcome.messages } : request;
}
