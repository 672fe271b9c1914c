import { contextWindowOf, type Host, type Plugin } from '@ctxhost/core';
import { compactThroughOpencode } from './compact-through-opencode.js';
import type { MirrorRegistry, MirrorState } from './mirror-registry.js';

export const OPENCODE_RESUMMARY = 'opencode-resummary';

type Outcome = 'answered' | 'empty again' | 'nothing to summarize' | 'not sent';

/**
 * When the first reply after one of opencode's compactions comes back empty
 * (the model lost its footing in the summary), ctxhost has opencode summarize
 * again, with the unanswered prompt withdrawn first, and sends that prompt
 * again: at most `maxResummaries` times per compaction. Then it says what
 * happened once and leaves the session to the user.
 */
export function createOpencodeResummary(registry: MirrorRegistry, maxResummaries: number): Plugin {
  return {
    name: OPENCODE_RESUMMARY,
    apply(host) {
      host.hooks.sessionIdle.tapPromise(OPENCODE_RESUMMARY, async ({ sessionId }) => {
        const state = registry.peek(sessionId);
        const after = state?.afterCompaction;
        if (state === undefined || after?.emptyReplyTo === undefined || after.resummarizing) return;
        after.emptyReplyTo = undefined;
        after.resummarizing = true;
        let outcome: Outcome = 'empty again';
        try {
          while (outcome === 'empty again' && after.resummaries < maxResummaries) {
            after.resummaries++;
            outcome = await resummarize(host, state, sessionId);
          }
        } finally {
          after.resummarizing = false;
        }
        await host.toast({ sessionId, ...toastOf(outcome, after.resummaries), source: OPENCODE_RESUMMARY });
      });
    },
  };
}

async function resummarize(host: Host, state: MirrorState, sessionId: string): Promise<Outcome> {
  const session = await host.session(sessionId);
  const window = contextWindowOf(session, host.config);
  const report = window === undefined ? undefined : await compactThroughOpencode(host, session, 'recovery', window);
  if (report === undefined) return 'nothing to summarize';
  const handled = await host.hooks.resend.promise({
    sessionId,
    reason: `${OPENCODE_RESUMMARY}: empty reply after a compaction`,
  });
  if (handled !== true) return 'not sent';
  const empty = state.afterCompaction.emptyReplyTo !== undefined;
  state.afterCompaction.emptyReplyTo = undefined;
  return empty ? 'empty again' : 'answered';
}

function toastOf(outcome: Outcome, resummaries: number): { level: 'success' | 'warning'; title: string; text: string } {
  const first = 'The first reply after the compaction came back empty';
  const again = `opencode summarized again (${resummaries} time${resummaries === 1 ? '' : 's'}) and your last message was sent again`;
  switch (outcome) {
    case 'answered':
      return { level: 'success', title: 'Session recovered', text: `${first}, so ${again}; the session answered.` };
    case 'not sent':
      return {
        level: 'warning',
        title: 'Empty reply after compaction',
        text: `${first}, so opencode summarized again; send your last message again to continue.`,
      };
    case 'nothing to summarize':
      return {
        level: 'warning',
        title: 'Empty reply after compaction',
        text: `${first}, and there is nothing before your last message to summarize again. Send your message again.`,
      };
    case 'empty again':
      return {
        level: 'warning',
        title: 'Empty reply after compaction',
        text: `${first}${resummaries === 0 ? '' : `, and again after ${again}`}. ctxhost stops here (hooks.opencode.max_resummaries): send your message again, or start a new session from the summary.`,
      };
  }
}
