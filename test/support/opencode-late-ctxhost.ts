import { CtxhostPlugin } from '../../packages/opencode/dist/index.js';

/** How late ctxhost's plugin is handed each of opencode's events. */
const LATENCY_MS = 1_500;

type PluginInput = Parameters<typeof CtxhostPlugin>[0];

/**
 * A test-only stand-in for ctxhost's plugin entry: ctxhost's plugin itself, handed each of opencode's events
 * 1.5 s late, in order, as opencode delivers them to plugins under load. Its own calls to opencode (summarize,
 * messages) are answered at once, so ctxhost acts on a session that has moved on: a prompt sent as a turn
 * ends reaches opencode before ctxhost's compaction between the turns does.
 */
export const LateCtxhost = async (input: PluginInput) => {
  const hooks = await CtxhostPlugin(input);
  const forward = hooks.event;
  if (forward === undefined) return hooks;
  return {
    ...hooks,
    event: async ({ event }: Parameters<typeof forward>[0]) => {
      // opencode changes the objects it published: the copy is the event as it was sent.
      const sent = structuredClone(event);
      setTimeout(() => void forward({ event: sent }), LATENCY_MS);
    },
  };
};
