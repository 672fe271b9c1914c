import type { Hooks } from '@opencode-ai/plugin';
import type { OpencodeCompactionReviewer } from './opencode-compaction-review.js';
import { newestSummary } from './opencode-compaction-span.js';

type MessagesTransform = NonNullable<Hooks['experimental.chat.messages.transform']>;

/**
 * opencode's `experimental.chat.messages.transform`: on every request after
 * one of opencode's summaries, what ctxhost's check of it added (the facts it
 * missed, the ledger, the files re-read from the project) goes beside the
 * summary, as text of the summary message. opencode stores nothing of it: the
 * same text is added to each request (one check per summary), so the prompt's
 * start stays the same from request to request. The first request after a
 * summary waits for its check. ctxhost's trouble never stops the request.
 */
export function createCompactionAddendumTransform(
  reviewer: Pick<OpencodeCompactionReviewer, 'review'>,
  onError: (error: unknown) => void,
): MessagesTransform {
  return async (_input, output) => {
    try {
      const summary = newestSummary(output.messages);
      if (summary === undefined) return;
      const { sessionID, id } = summary.info;
      const reviewed = await reviewer.review(sessionID, id);
      for (const part of reviewed?.addenda ?? [])
        summary.parts.push({ id: part.id, sessionID, messageID: id, type: 'text', text: part.text, synthetic: true });
    } catch (error) {
      onError(error);
    }
  };
}
