import type { CompactionReport } from '../model/compaction-report.js';
import type { Message } from '../model/message.js';
import { validateProjection } from '../model/validate-projection.js';
import type { Host } from './host.js';
import type { Session } from './session.js';

/** A compaction result carried over to the session's fresh view. */
export interface Rebased {
  messages: Message[];
  report: CompactionReport;
}

/**
 * A compaction refused as stale (another writer appended to the session after
 * its input was taken), carried over to the fresh view without running the
 * engine again: when the fresh view still opens with exactly the compacted
 * input, the result is followed by what came after it (as a background
 * compaction is swapped in). Undefined when the view changed otherwise (a
 * compaction, a revert, an update elsewhere) or the result would not be a
 * valid prompt: the compaction is redone then.
 */
export function rebaseOnFreshView(
  host: Host,
  session: Session,
  input: readonly Message[],
  result: Rebased,
): Rebased | undefined {
  const fresh = session.messages();
  if (fresh.length < input.length) return undefined;
  for (let index = 0; index < input.length; index++)
    if (JSON.stringify(fresh[index]) !== JSON.stringify(input[index])) return undefined;
  const since = fresh.slice(input.length);
  const messages = [...result.messages, ...since];
  if (validateProjection(messages).length > 0) return undefined;
  const report: CompactionReport = {
    ...result.report,
    tokensBefore: host.counter.countAll(fresh),
    tokensAfter: result.report.tokensAfter + host.counter.countAll(since),
    messagesBefore: fresh.length,
    messagesAfter: messages.length,
    notes: [
      ...(result.report.notes ?? []),
      `another writer appended ${since.length} message${since.length === 1 ? '' : 's'} while it ran: kept after the result`,
    ],
  };
  return report.tokensAfter < report.tokensBefore ? { messages, report } : undefined;
}
