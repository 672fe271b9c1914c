import type { CompactionReason, SessionStore, StoreEvent } from '@ctxhost/core';
import { compactionModelFor } from './compaction-model.js';
import { noteCompactionMarker, type MirrorRegistry } from './mirror-registry.js';
import type { OpencodeConfig } from './opencode-config.js';
import type { OpencodeActions } from './opencode-actions.js';
import { OPENCODE_COMPACTION_ENGINE } from './opencode-compaction-review.js';
import { opencodeMessageId } from './to-ctxhost-messages.js';

export { opencodeMessageId } from './to-ctxhost-messages.js';

/**
 * A session store that carries ctxhost's changes to opencode before keeping
 * them: a shortened tool output becomes opencode's part update, a revert
 * becomes opencode's revert, a compaction becomes opencode's summarize. The
 * inner store still receives every event, so originals stay retrievable. When
 * opencode refuses, the error propagates and nothing is recorded: ctxhost
 * never believes a change opencode did not make.
 */
export function createOpencodeSyncStore(
  inner: SessionStore,
  actions: OpencodeActions,
  registry: MirrorRegistry,
  config: Pick<OpencodeConfig, 'compaction_model'> = { compaction_model: {} },
): SessionStore {
  const carryOut = async (sessionId: string, event: StoreEvent): Promise<void> => {
    switch (event.type) {
      case 'part.updated':
        if (event.part.type !== 'tool-result' || typeof event.part.output !== 'string') return;
        return actions.updateToolOutput(sessionId, opencodeMessageId(event.messageId), event.partId, event.part.output);
      case 'reverted': {
        const first = event.removedMessageIds[0];
        // A prompt withdrawn before a summarize is already gone from opencode; reverting to it again would undo the summary.
        if (first !== undefined && first !== registry.peek(sessionId)?.withdrawnPrompt)
          await actions.revert(sessionId, opencodeMessageId(first));
        return;
      }
      case 'compaction.applied':
        // opencode's own summary, recorded once checked: opencode already made it.
        if (event.report.engine === OPENCODE_COMPACTION_ENGINE) return;
        return summarize(sessionId, event.report.reason);
      default:
        return;
    }
  };
  /**
   * opencode's summarize compacts everything in the session. A prompt whose
   * reply failed would be summarized with the history, so it is reverted
   * first and `resend` sends it again after the summary.
   */
  const summarize = async (sessionId: string, reason: CompactionReason): Promise<void> => {
    const state = registry.peek(sessionId);
    const model = compactionModelFor(config, state?.lastPrompt?.agent, state?.model);
    if (state === undefined || model === undefined) return;
    const failed = state.failedPrompt;
    if (failed !== undefined && failed === state.lastPrompt?.messageId && state.withdrawnPrompt !== failed) {
      await actions.revert(sessionId, failed);
      state.withdrawnPrompt = failed;
    }
    state.requestedSummary = reason;
    // Known before the mirror takes the compaction: a reply to a prompt that got in just before it is mirrored after it.
    const marker = await actions.summarize(sessionId, model);
    if (marker !== undefined) noteCompactionMarker(state, marker);
  };
  return {
    kind: `opencode+${inner.kind}`,
    async append(sessionId, event, options) {
      await carryOut(sessionId, event);
      return inner.append(sessionId, event, options);
    },
    read: (sessionId) => inner.read(sessionId),
    original: (sessionId, partId) => inner.original(sessionId, partId),
    list: () => inner.list(),
    delete: (sessionId) => inner.delete(sessionId),
    close: () => inner.close(),
  };
}
