import { contextWindowOf } from './context-usage.js';
import { REQUEST_STAGE } from './host-hooks.js';
import type { Plugin } from './plugin.js';

export const ENGINE_PLUGIN = 'context-engine';

/**
 * Core's built-in plugin that runs the active context engine before each
 * request: when `engine.shouldCompress` says so, the session's projection is
 * compressed, applied (`compaction.completed`), and sent.
 */
export function createEnginePlugin(): Plugin {
  return {
    name: ENGINE_PLUGIN,
    apply(host) {
      host.hooks.beforeRequest.tapPromise({ name: ENGINE_PLUGIN, stage: REQUEST_STAGE.engine }, async (request, context) => {
        if (!host.config.compression.enabled) return request;
        const session = await host.session(request.sessionId);
        const contextWindow = context.contextWindow ?? contextWindowOf(session, host.config);
        const size = session.promptSize();
        const state = { sessionId: session.id, promptTokens: size.tokens, tokenSource: size.source, contextWindow, messageCount: request.messages.length };
        if (contextWindow === undefined || !host.engine.shouldCompress(state)) return request;
        const result = await host.engine.compress(session.messages().slice(), {
          sessionId: session.id,
          contextWindow,
          counter: host.counter,
          reason: 'threshold',
          original: (partId) => session.original(partId),
          ...(host.summarizer === undefined ? {} : { summarizer: host.summarizer }),
          ...(context.signal === undefined ? {} : { signal: context.signal }),
        });
        // Nothing to gain (a session too short for the engine's protected head and tail): leave it, record nothing.
        if (result.report.tokensAfter >= result.report.tokensBefore) return request;
        await session.applyCompaction(result.messages, result.report);
        return { ...request, messages: result.messages };
      });
      host.hooks.messageUpdated.tapPromise(ENGINE_PLUGIN, async ({ sessionId, usage }) => {
        if (usage !== undefined) host.engine.updateFromUsage?.(usage, sessionId);
      });
    },
  };
}
