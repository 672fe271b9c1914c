import type { Message } from '@ctxhost/core';
import { transcriptSegments, type Transcript } from '@ctxhost/transcripts';

/** One place a session is cut: what the model saw just before one of its turns (from the agent's own last compaction on). */
export interface EvalCut {
  /** The message index in the transcript of the assistant turn the cut comes before. */
  at: number;
  /** What the model saw up to the cut, without the lines the agent's UI never sent. */
  messages: Message[];
}

/** Fewer messages than this before a turn leave nothing worth compacting: no cut there. */
export const MIN_CUT_MESSAGES = 8;

/**
 * `count` cuts spread evenly over the places the model was about to answer (an
 * assistant turn after the user's message or tool results, at least MIN_CUT_MESSAGES
 * into its segment), the last one at the session's last such place; fewer when the
 * session has fewer. Each cut holds its segment's messages up to there, so it ends
 * on what the model answered: the probe question joins that user turn.
 */
export function cutPoints(transcript: Pick<Transcript, 'messages' | 'boundaries'>, count: number): EvalCut[] {
  const candidates: { at: number; start: number }[] = [];
  for (const { start, end } of transcriptSegments(transcript)) {
    let previous: Message | undefined;
    for (let index = start; index < end; index++) {
      const message = transcript.messages[index]!;
      if (message.meta?.uiOnly !== undefined) continue;
      if (index >= start + MIN_CUT_MESSAGES && isTurnStart(message, previous)) candidates.push({ at: index, start });
      previous = message;
    }
  }
  const picked = new Set<number>();
  for (let cut = 1; cut <= Math.min(count, candidates.length); cut++)
    picked.add(Math.ceil((cut * candidates.length) / count) - 1);
  return [...picked]
    .sort((a, b) => a - b)
    .map((position) => {
      const { at, start } = candidates[position]!;
      // A later segment still had the session's system prompt in front of it.
      const system = transcript.messages.slice(0, start).filter((message) => message.role === 'system');
      const seen = transcript.messages.slice(start, at).filter((message) => message.meta?.uiOnly === undefined);
      return { at, messages: [...system, ...seen] };
    });
}

/** An assistant message in answer to a user or tool message: the model's turn began there. */
function isTurnStart(message: Message, previous: Message | undefined): boolean {
  return (
    message.role === 'assistant' &&
    message.meta?.sidechain !== true &&
    (previous?.role === 'user' || previous?.role === 'tool')
  );
}
