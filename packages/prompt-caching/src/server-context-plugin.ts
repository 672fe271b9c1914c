import { readHookSection, REQUEST_STAGE, type Host, type ModelRequest, type Plugin } from '@ctxhost/core';
import type { z } from 'zod';
import { isClaudeModel } from './should-enable-caching.js';
import { SERVER_CONTEXT, ServerContextConfigSchema, type ServerContextConfig } from './server-context-config.js';
import { readServerContextReport } from './server-context-report.js';
import { buildServerContextRequest, serverTriggerTokens, type ServerContextRequest } from './server-context-request.js';
import { serverFirstThreshold } from './server-first-engine.js';

/** After the caching breakpoints: it only adds provider options, which no earlier stage reads. */
export const SERVER_CONTEXT_STAGE = REQUEST_STAGE.caching + 10;

export interface ServerContextPluginOptions {
  /** Replaces `hooks.server-context` (written in the file's spelling). */
  config?: z.input<typeof ServerContextConfigSchema>;
  /** The provider requests go to (default 'anthropic'); only Anthropic's API has these features. */
  provider?: string;
}

/** What the API reported doing for one session, summed over its responses. */
export interface ServerContextTotals {
  editsApplied: number;
  clearedToolUses: number;
  clearedThinkingTurns: number;
  clearedInputTokens: number;
  compactions: number;
  compactionInputTokens: number;
  compactionOutputTokens: number;
}

export interface ServerContextPlugin extends Plugin {
  /** The session's totals, once a response reported server-side context management. */
  totals(sessionId: string): ServerContextTotals | undefined;
}

/**
 * `server-context`: hands context management to the Anthropic API. On the
 * request waterfall (`beforeRequest`, AsyncSeriesWaterfallHook, at
 * SERVER_CONTEXT_STAGE) it adds the configured edits as
 * `providerOptions.context_management` and their betas to
 * `providerOptions.betas`, for Claude models on Anthropic's API; a request that
 * already carries `context_management` keeps its own. On `message.updated`
 * (AsyncSeriesHook) it sums what the API reported (applied edits, compactions).
 * It does not change the client-side engine: wrap it with `withServerFirst` so
 * it compresses only as the fallback; without that, the plugin warns once when
 * the client's threshold comes before the server's trigger.
 */
export function createServerContextPlugin(options: ServerContextPluginOptions = {}): ServerContextPlugin {
  const totals = new Map<string, ServerContextTotals>();
  return {
    name: SERVER_CONTEXT,
    totals: (sessionId) => (totals.has(sessionId) ? { ...totals.get(sessionId)! } : undefined),
    apply(host) {
      const config =
        options.config === undefined
          ? readHookSection(host.config, SERVER_CONTEXT, ServerContextConfigSchema)
          : ServerContextConfigSchema.parse(options.config);
      const fields = buildServerContextRequest(config);
      if (fields === undefined) return;
      const provider = (options.provider ?? 'anthropic').toLowerCase();
      const announced = new Set<string>();
      host.hooks.beforeRequest.tapPromise(
        { name: SERVER_CONTEXT, stage: SERVER_CONTEXT_STAGE },
        async (request, context) => {
          const applies = provider === 'anthropic' && isClaudeModel(request.model);
          if (!announced.has(request.model)) {
            announced.add(request.model);
            announce(
              host,
              config,
              request.model,
              applies ? undefined : `${request.model} on ${provider}: only Anthropic's API manages context server-side`,
              context.contextWindow,
            );
          }
          return applies ? withServerContext(request, fields) : request;
        },
      );
      host.hooks.messageUpdated.tapPromise(SERVER_CONTEXT, async ({ sessionId, message }) => {
        const report = message.role === 'assistant' ? readServerContextReport(message) : undefined;
        if (report === undefined) return;
        const sum = totals.get(sessionId) ?? {
          editsApplied: 0,
          clearedToolUses: 0,
          clearedThinkingTurns: 0,
          clearedInputTokens: 0,
          compactions: 0,
          compactionInputTokens: 0,
          compactionOutputTokens: 0,
        };
        for (const edit of report.appliedEdits) {
          sum.editsApplied++;
          sum.clearedToolUses += edit.clearedToolUses ?? 0;
          sum.clearedThinkingTurns += edit.clearedThinkingTurns ?? 0;
          sum.clearedInputTokens += edit.clearedInputTokens;
        }
        if (report.compaction !== undefined) {
          sum.compactions++;
          sum.compactionInputTokens += report.compaction.inputTokens;
          sum.compactionOutputTokens += report.compaction.outputTokens;
        }
        totals.set(sessionId, sum);
      });
      host.hooks.sessionDeleted.tapPromise(SERVER_CONTEXT, async ({ sessionId }) => {
        totals.delete(sessionId);
      });
    },
  };
}

/** The request with the server-side fields merged into its provider options (the caller's own `context_management` wins). */
export function withServerContext(request: ModelRequest, fields: ServerContextRequest): ModelRequest {
  const providerOptions = request.providerOptions ?? {};
  const existing = Array.isArray(providerOptions['betas'])
    ? providerOptions['betas'].filter((beta): beta is string => typeof beta === 'string')
    : [];
  const betas = [...new Set([...existing, ...fields.betas])];
  const contextManagement = providerOptions['context_management'] ?? fields.contextManagement;
  return { ...request, providerOptions: { ...providerOptions, betas, context_management: contextManagement } };
}

function announce(
  host: Host,
  config: ServerContextConfig,
  model: string,
  off: string | undefined,
  contextWindow: number | undefined,
): void {
  if (off !== undefined) {
    host.logger.info(`server-side context management off (${off})`);
    return;
  }
  const strategies = [
    config.clear_thinking.enabled ? `clear_thinking keeping ${config.clear_thinking.keep_turns} turn(s)` : undefined,
    config.clear_tool_uses.enabled
      ? `clear_tool_uses over ${config.clear_tool_uses.trigger_tokens} tokens keeping ${config.clear_tool_uses.keep_tool_uses}`
      : undefined,
    config.compaction.enabled ? `compaction over ${config.compaction.trigger_tokens} tokens` : undefined,
  ].filter((text) => text !== undefined);
  const fallback = serverFirstThreshold(host.engine);
  const clientAt =
    contextWindow === undefined
      ? undefined
      : Math.floor((fallback ?? host.config.compression.threshold) * contextWindow);
  const client =
    clientAt === undefined
      ? 'client compaction threshold unknown (no context window)'
      : `client compaction from ${clientAt} tokens${fallback === undefined ? '' : ' (fallback)'}`;
  host.logger.info(`server-side context management on (${model}: ${strategies.join('; ')}); ${client}`);
  const trigger = serverTriggerTokens(config);
  if (clientAt !== undefined && trigger !== undefined && host.config.compression.enabled && clientAt <= trigger) {
    host.logger.warn(
      `server-side context management: client compaction at ${clientAt} tokens comes before the server's trigger at ${trigger}, so the server will not get to act; wrap the engine with withServerFirst or lower the trigger`,
    );
  }
}
