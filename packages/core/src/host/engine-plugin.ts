import {
  isStale,
  recordGrowth,
  startPreparation,
  swapIn,
  thresholdNear,
  type Preparation,
} from './background-compaction.js';
import {
  COMPACTION_LOW_WATER,
  CONSECUTIVE_REGROWTH,
  lowWaterMark,
  markRequestCompacted,
  outputBudgetLine,
} from './compaction-decision.js';
import { contextWindowOf } from './context-usage.js';
import { REQUEST_STAGE } from './host-hooks.js';
import type { Plugin } from './plugin.js';
import type { Session } from './session.js';
import { runCompaction } from './run-compaction.js';

export const ENGINE_PLUGIN = 'context-engine';

/**
 * Core's built-in plugin that runs the active context engine before each
 * request: when `engine.shouldCompress` says so, the session's projection is
 * compressed through `runCompaction` (`compaction.before`, `compaction.started`,
 * then `compaction.completed` or `compaction.failed`), and sent.
 *
 * With `compression.background` (off by default), once the session's growth
 * says the threshold is a request or two away (`thresholdNear`) the compaction is prepared
 * from a snapshot while the request runs (or the session is idle), and the
 * request that reaches the threshold swaps it in with what was appended
 * since, instead of waiting for the summarizer. A compaction needed with
 * nothing prepared (or a stale snapshot) runs before the request as before.
 */
export function createEnginePlugin(): Plugin {
  return {
    name: ENGINE_PLUGIN,
    apply(host) {
      /**
       * Per session: requests built so far, the request and size of the last threshold compaction, a compaction
       * prepared in the background, and how many threshold compactions were not done (said once, the rest counted).
       */
      const sessions = new Map<
        string,
        {
          requests: number;
          notDone: number;
          last?: { request: number; tokensAfter: number };
          preparation?: Preparation;
          /** The prompt's size at the previous request and the last growths between requests (newest last). */
          promptTokens?: number;
          growths: number[];
        }
      >();
      /** Starts preparing the next threshold compaction when the prompt has passed the soft line and nothing is prepared. */
      const prepareIfDue = (session: Session, contextWindow: number | undefined): void => {
        const state = sessions.get(session.id);
        if (!host.config.compression.background || contextWindow === undefined || state === undefined) return;
        if (state.preparation !== undefined && !isStale(state.preparation, session)) return;
        state.preparation?.cancel();
        state.preparation = undefined;
        const { threshold } = host.config.compression;
        const promptTokens = session.promptSize().tokens;
        if (!thresholdNear(promptTokens, threshold * contextWindow, state.growths)) return;
        try {
          state.preparation = startPreparation(host, session, {
            contextWindow,
            targetTokens: lowWaterMark(threshold, contextWindow),
            promptTokens,
          });
        } catch (error) {
          // A host being disposed refuses new tasks: the compaction then runs inline when it is due, as without background.
          host.logger.debug('background compaction not started', { sessionId: session.id, error: String(error) });
        }
      };
      host.hooks.beforeRequest.tapPromise(
        { name: ENGINE_PLUGIN, stage: REQUEST_STAGE.engine },
        async (request, context) => {
          if (!host.config.compression.enabled) return request;
          const session = await host.session(request.sessionId);
          const state = sessions.get(session.id) ?? { requests: 0, notDone: 0, growths: [] };
          sessions.set(session.id, state);
          state.requests++;
          const contextWindow = context.contextWindow ?? contextWindowOf(session, host.config);
          const size = session.promptSize();
          recordGrowth(state, size.tokens);
          const engineState = {
            sessionId: session.id,
            promptTokens: size.tokens,
            tokenSource: size.source,
            contextWindow,
            messageCount: request.messages.length,
            model: request.model,
          };
          const { threshold } = host.config.compression;
          const budgetLine =
            contextWindow === undefined ? undefined : outputBudgetLine(threshold, contextWindow, request.maxTokens);
          // Over the line the output budget draws, the request cannot be answered as it is: compact whatever the engine says.
          const overBudget = budgetLine !== undefined && size.tokens > budgetLine;
          if (contextWindow === undefined || (!overBudget && !host.engine.shouldCompress(engineState))) {
            prepareIfDue(session, contextWindow);
            return request;
          }
          // No two threshold compactions on consecutive requests unless the prompt grew by a tenth of the window since.
          if (
            !overBudget &&
            state.last?.request === state.requests - 1 &&
            size.tokens - state.last.tokensAfter < CONSECUTIVE_REGROWTH * contextWindow
          )
            return request;
          const preparation = state.preparation;
          state.preparation = undefined;
          // A preparation aimed at the threshold's low water, not under the output budget's line: not used then.
          if (preparation !== undefined && (budgetLine !== undefined || isStale(preparation, session)))
            preparation.cancel();
          const swapped =
            preparation === undefined || budgetLine !== undefined
              ? undefined
              : await swapIn(host, session, preparation);
          const outcome =
            swapped ??
            (await runCompaction(host, session, {
              reason: 'threshold',
              contextWindow,
              // The low-water mark: well under the line (the output budget's if lower), so the next requests append to a stable prefix.
              targetTokens:
                budgetLine === undefined
                  ? lowWaterMark(threshold, contextWindow)
                  : Math.floor(budgetLine * COMPACTION_LOW_WATER),
              ...(context.signal === undefined ? {} : { signal: context.signal }),
            }));
          if (outcome.status === 'unchanged') {
            // Not done: say why once per session when the engine said (a compaction that would have saved under a
            // tenth), so the moved threshold is not hidden; the later ones are counted (`compaction.failed` each).
            const notes = outcome.report.notes ?? [];
            state.notDone++;
            if (notes.length > 0 && state.notDone === 1)
              await host.toast({
                sessionId: session.id,
                level: 'info',
                title: 'Compaction not done',
                text: `${notes.join('; ')} (said once for this session; later ones are counted, not said)`,
                source: ENGINE_PLUGIN,
              });
            else host.logger.debug(`compaction not done (${state.notDone} in this session)`, { sessionId: session.id });
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
      // Idle: the user has the reply and is writing the next request; a summary prepared now costs them no wait.
      host.hooks.sessionIdle.tapPromise(ENGINE_PLUGIN, async ({ sessionId }) => {
        if (!sessions.has(sessionId) || !host.config.compression.enabled) return;
        const session = await host.session(sessionId);
        prepareIfDue(session, contextWindowOf(session, host.config));
      });
      host.hooks.sessionDeleted.tapPromise(ENGINE_PLUGIN, async ({ sessionId }) => {
        sessions.get(sessionId)?.preparation?.cancel();
        sessions.delete(sessionId);
      });
    },
  };
}
