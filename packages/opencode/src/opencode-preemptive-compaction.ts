import {
  formatPercent,
  formatTokens,
  measureContextUsage,
  readHookSection,
  type Host,
  type Plugin,
} from '@ctxhost/core';
import { PREEMPTIVE_COMPACTION, PreemptiveConfigSchema } from '@ctxhost/preemptive-compaction';
import { compactThroughOpencode } from './compact-through-opencode.js';
import { resendFoldedPrompts } from './folded-prompts.js';
import type { MirrorRegistry } from './mirror-registry.js';
import type { OpencodeActions } from './opencode-actions.js';

/**
 * Preemptive compaction inside opencode (it takes the place of
 * `@ctxhost/preemptive-compaction`, under the same name and config): opencode
 * builds its own requests, so nothing can be added to one; instead, when a turn
 * ends (`session.idle`) with usage at the threshold or above, ctxhost has
 * opencode summarize the session (opencode's summarize, no "Continue" message)
 * before the next request is sent. Nothing is sent on the user's behalf. It
 * fires once per arming, and re-arms once usage is back under the threshold.
 * A turn whose reply failed is left to the recovery cascade. A prompt the user
 * sent meanwhile that opencode folded into the summary turn is sent again
 * once the summary is in (see `foldedPrompts`). While the session's requests carry the provider's own
 * compaction, `clientFloor` raises the threshold to native compaction's `client_fallback_threshold`,
 * so the server acts first (as `withServerFirst` does for the request-side engine).
 */
export function createOpencodePreemptiveCompaction(
  registry: MirrorRegistry,
  actions: OpencodeActions,
  clientFloor: (sessionId: string) => number | undefined = () => undefined,
): Plugin {
  return {
    name: PREEMPTIVE_COMPACTION,
    apply(host) {
      const configured = readHookSection(host.config, PREEMPTIVE_COMPACTION, PreemptiveConfigSchema).threshold;
      const armed = new Map<string, boolean>();
      host.hooks.sessionIdle.tapPromise(PREEMPTIVE_COMPACTION, async ({ sessionId }) => {
        const state = registry.peek(sessionId);
        // A failed reply (400, silent overflow) is the cascade's, and so is a prompt it withdrew to send again or a re-sent turn still running.
        if (
          state === undefined ||
          state.failedPrompt !== undefined ||
          state.withdrawnPrompt !== undefined ||
          state.turnEnd !== undefined ||
          state.compacting
        )
          return;
        const threshold = Math.max(configured, clientFloor(sessionId) ?? 0);
        const session = await host.session(sessionId);
        const usage = measureContextUsage(session, host.config);
        if (!usage.known) return;
        if (usage.ratio < threshold) {
          armed.set(sessionId, true);
          return;
        }
        if (armed.get(sessionId) === false) return;
        armed.set(sessionId, false);
        state.compacting = true;
        try {
          await compactBeforeNextRequest(host, actions, registry, sessionId, usage.tokens, usage.window);
        } finally {
          state.compacting = false;
        }
        const after = measureContextUsage(session, host.config);
        if (after.known && after.ratio < threshold) armed.set(sessionId, true);
      });
      host.hooks.sessionDeleted.tapPromise(PREEMPTIVE_COMPACTION, async ({ sessionId }) => {
        armed.delete(sessionId);
      });
    },
  };
}

async function compactBeforeNextRequest(
  host: Host,
  actions: OpencodeActions,
  registry: MirrorRegistry,
  sessionId: string,
  tokens: number,
  window: number,
): Promise<void> {
  const session = await host.session(sessionId);
  const used = `${formatPercent(tokens / window)} of the ${formatTokens(window)}-token window was in use`;
  try {
    const report = await compactThroughOpencode(host, session, 'preemptive', window);
    if (report === undefined) {
      // The monitor's toast already said how full the window is; there is nothing more that is true to add.
      host.logger.info(`${used}, and there is nothing before the last message to summarize: no compaction`, {
        sessionId,
      });
      return;
    }
    const summarized = report.messagesBefore - report.messagesAfter + 1;
    const resent = await resendFoldedPrompts(actions, registry, sessionId, (prompt, error) =>
      host.logger.warn('opencode kept the folded copy of a prompt sent again; the history shows it twice', {
        sessionId,
        messageId: prompt.messageId,
        error: String(error),
      }),
    );
    const sent =
      resent.length === 0
        ? 'nothing was sent for you'
        : `opencode folded your message sent meanwhile into the summary (${resent.map((prompt) => quote(prompt.texts.join(' '))).join(', ')}), so it was sent again, as you wrote it`;
    await host.toast({
      sessionId,
      level: 'info',
      title: 'Context compacted',
      text: `${used}, so opencode summarized the ${summarized} earlier messages before the next request (about ${formatTokens(report.tokensBefore)} → ${formatTokens(report.tokensAfter)} tokens). Your last message and its answer are kept; ${sent}.`,
      source: PREEMPTIVE_COMPACTION,
    });
  } catch (error) {
    host.logger.error('ctxhost could not compact the session before the next request', {
      sessionId,
      error: String(error),
    });
    await host.toast({
      sessionId,
      level: 'warning',
      title: 'Compaction failed',
      text: `${used}, and opencode's summarize failed: ${error instanceof Error ? error.message : String(error)}. If the next request overflows, ctxhost's recovery runs.`,
      source: PREEMPTIVE_COMPACTION,
    });
  }
}

function quote(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return `"${line.length > 60 ? `${line.slice(0, 59)}…` : line}"`;
}
