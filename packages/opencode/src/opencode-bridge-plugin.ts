import type { Plugin } from '@ctxhost/core';
import type { MirrorRegistry } from './mirror-registry.js';
import type { OpencodeActions } from './opencode-actions.js';
import { createToastSender } from './toast-sender.js';

export const OPENCODE_BRIDGE = 'opencode-bridge';

/**
 * The ctxhost side of the bridge: shows the hooks' toasts in opencode's TUI
 * (without waiting for opencode to answer them),
 * and answers `resend` for the sessions it mirrors by reverting opencode to the
 * last user prompt and sending that prompt again (never a synthetic "Continue").
 * A prompt the store already withdrew before a summarize is only sent again.
 * `resend` returns when the re-sent turn is over (its `session.idle`).
 */
export function createOpencodeBridgePlugin(actions: OpencodeActions, registry: MirrorRegistry): Plugin {
  return {
    name: OPENCODE_BRIDGE,
    apply(host) {
      const toasts = createToastSender(actions, host.logger);
      host.hooks.toast.tap(OPENCODE_BRIDGE, (toast) => {
        toasts.send({ title: toast.title, message: toast.text, level: toast.level });
      });

      host.hooks.resend.tapPromise(OPENCODE_BRIDGE, async ({ sessionId, signal }) => {
        const state = registry.peek(sessionId);
        const prompt = state?.lastPrompt;
        if (state === undefined || prompt === undefined) return undefined;
        const session = await host.session(sessionId);
        await session.exclusive(async () => {
          const projection = session.messages();
          const index = projection.findIndex((message) => message.id === prompt.messageId);
          // Not in the projection: a recovery step already reverted it (reverting again would move opencode's revert point).
          if (index < 0) return;
          const before = projection[index - 1];
          if (before !== undefined) await session.revert(before.id);
          else if (state.withdrawnPrompt !== prompt.messageId) await actions.revert(sessionId, prompt.messageId);
        });
        const turnEnded = new Promise<void>((resolve) => {
          state.turnEnd = { text: prompt.texts[0] ?? '', previousMessageId: prompt.messageId, started: false, resolve };
        });
        try {
          await actions.prompt(sessionId, { texts: prompt.texts, model: prompt.model, agent: prompt.agent });
        } catch (error) {
          state.turnEnd = undefined;
          throw error;
        }
        state.withdrawnPrompt = undefined;
        // Returns when the re-sent turn is over, so an overflow again is seen (as session.error) before the cascade decides.
        await untilAborted(turnEnded, signal);
        return true;
      });
    },
  };
}

function untilAborted(done: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return done;
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
    void done.then(resolve);
  });
}
