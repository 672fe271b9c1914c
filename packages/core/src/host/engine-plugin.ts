import { CONSECUTIVE_REGROWTH, lowWaterMark, markRequestCompacted } from './compaction-decision.js';
import { contextWindowOf } from './context-usage.js';
import { REQUEST_STAGE } from './host-hooks.js';
import type { Plugin } from './plugin.js';
import { runCompaction } from './run-compaction.js';

export const ENGINE_PLUGIN = 'context-engine';

/**
 * Core's built-in plugin that runs the active context engine before each
 * request: when `engine.shouldCompress` says so, the session's projection is
 * compressed through `runCompaction` (`compaction.before`, `compaction.started`,
 * then `compaction.completed` or `compaction.failed`), and sent.
 */
export function createEnginePlugin(): Plugin {
  return {
    name: ENGINE_PLUGIN,
    apply(host) {
      /** Per session: requests built so far, and the request and size of the last threshold compaction. */
      const sessions = new Map<string, { requests: number; last?: { request: number; tokensAfter: number } }>();
      host.hooks.beforeRequest.tapPromise(
        { name: ENGINE_PLUGIN, stage: REQUEST_STAGE.engine },
        async (request, context) => {
          if (!host.config.compression.enabled) return request;
          const session = await host.session(request.sessionId);
          const state = sessions.get(session.id) ?? { requests: 0 };
          sessions.set(session.id, state);
          state.requests++;
          const contextWindow = context.contextWindow ?? contextWindowOf(session, host.config);
          const size = session.promptSize();
          const engineState = {
            sessionId: session.id,
            promptTokens: size.tokens,
            tokenSource: size.source,
            contextWindow,
            messageCount: request.messages.length,
          };
          if (contextWindow === undefined || !host.engine.shouldCompress(engineState)) return request;
          // No two threshold compactions on consecutive requests unless the prompt grew by a tenth of the window since.
          if (
            state.last?.request === state.requests - 1 &&
            size.tokens - state.last.tokensAfter < CONSECUTIVE_REGROWTH * contextWindow
          )
            return request;
          const outcome = await runCompaction(host, session, {
            reason: 'threshold',
            contextWindow,
            // The low-water mark: well under the line, so the next requests append to a stable prefix.
            targetTokens: lowWaterMark(host.config.compression.threshold, contextWindow),
            ...(context.signal === undefined ? {} : { signal: context.signal }),
          });
          if (outcome.status === 'unchanged') {
            // Not done: say why when the engine said (a compaction that would have saved under a tenth), so the moved threshold is not hidden.
            if ((outcome.report.notes ?? []).length > 0)
              await host.toast({
                sessionId: session.id,
                level: 'info',
                title: 'Compaction not done',
                text: outcome.report.notes!.join('; '),
                source: ENGINE_PLUGIN,
              });
            return request;
          }
          if (outcome.status !== 'completed') return request;
          state.last = { request: state.requests, tokensAfter: outcome.report.tokensAfter };
          return markRequestCompacted({ ...request, messages: outcome.messages }, 'threshold');
        },
      );
      host.hooks.messageUpdated.tapPromise(ENGINE_PLUGIN, async ({ sessionId, usage }) => {
        if (usage !== undefined) host.engine.updateFromUsage?.(usage, sessionId);
      });
      host.hooks.sessionDeleted.tapPromise(ENGINE_PLUGIN, async ({ sessionId }) => {
        sessions.delete(sessionId);
      });
    },
  };
}
