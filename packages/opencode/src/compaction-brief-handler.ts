import { compactionBrief, type OpencodeTodo } from './compaction-brief.js';
import type { MirrorRegistry } from './mirror-registry.js';
import type { OpencodeClient } from './opencode-actions.js';

type Compacting = (input: { sessionID: string }, output: { context: string[]; prompt?: string }) => Promise<void>;

/**
 * opencode's `experimental.session.compacting`: adds ctxhost's brief to the
 * summary prompt of every compaction of the session (ctxhost's, and opencode's
 * own): the structured sections, the newest request (unless it was withdrawn to
 * be sent again after the summary) and the todo list. A failure to read the
 * todo list leaves it out; the compaction itself is never stopped.
 */
export function createCompactionBriefHandler(
  client: OpencodeClient,
  registry: MirrorRegistry,
  onError: (error: unknown) => void,
): Compacting {
  return async ({ sessionID }, output) => {
    const state = registry.peek(sessionID);
    const prompt = state?.lastPrompt;
    const withdrawn = prompt !== undefined && state?.withdrawnPrompt === prompt.messageId;
    const todos = await client.session
      .todo({ path: { id: sessionID } })
      .then((result) => (result.data ?? []) as OpencodeTodo[])
      .catch((error: unknown) => {
        onError(error);
        return [];
      });
    output.context.push(
      compactionBrief({
        todos,
        currentRequest: prompt === undefined || withdrawn ? undefined : prompt.texts.join('\n\n'),
      }),
    );
  };
}
