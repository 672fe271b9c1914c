import type { Plugin } from '@ctxhost/core';
import type { MirrorRegistry } from './mirror-registry.js';
import type { OpencodeActions } from './opencode-actions.js';

export const OPENCODE_BRIDGE = 'opencode-bridge';

/**
 * The ctxhost side of the bridge: shows the hooks' toasts in opencode's TUI,
 * and answers `resend` for the sessions it mirrors by reverting opencode to the
 * last user prompt and sending that prompt again (never a synthetic "Continue").
 */
export function createOpencodeBridgePlugin(actions: OpencodeActions, registry: MirrorRegistry): Plugin {
  return {
    name: OPENCODE_BRIDGE,
    apply(host) {
      host.hooks.toast.tapPromise(OPENCODE_BRIDGE, async (toast) => {
        await actions.toast({ title: toast.title, message: toast.text, level: toast.level });
      });

      host.hooks.resend.tapPromise(OPENCODE_BRIDGE, async ({ sessionId }) => {
        const prompt = registry.peek(sessionId)?.lastPrompt;
        if (prompt === undefined) return undefined;
        const session = await host.session(sessionId);
        await session.exclusive(async () => {
          const projection = session.messages();
          const index = projection.findIndex((message) => message.id === prompt.messageId);
          // Not in the projection: a recovery step already reverted it (reverting again would move opencode's revert point).
          if (index < 0) return;
          const before = projection[index - 1];
          if (before !== undefined) await session.revert(before.id);
          else await actions.revert(sessionId, prompt.messageId);
        });
        await actions.prompt(sessionId, { texts: prompt.texts, model: prompt.model, agent: prompt.agent });
        return true;
      });
    },
  };
}
