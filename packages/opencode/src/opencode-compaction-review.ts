import {
  completeCompaction,
  contextWindowOf,
  coveredSpanOf,
  isCompactionAddendum,
  isSummaryMessage,
  type CompactionReason,
  type CompactionReport,
  type Host,
  type Message,
  type Part,
} from '@ctxhost/core';
import type { MirrorRegistry } from './mirror-registry.js';
import type { OpencodeActions } from './opencode-actions.js';
import {
  compactionSpanOf,
  isCompletedSummary,
  newestSummary,
  type OpencodeCompactionSpan,
  type OpencodeEntry,
} from './opencode-compaction-span.js';
import { opencodeMessageId, toCtxhostMessages } from './to-ctxhost-messages.js';

/** Checks kept per session: the newest summary's, and the one before it while a request may still carry it. */
const KEPT_REVIEWS = 2;

/** The engine name of a compaction opencode made (its summary), as ctxhost records it. */
export const OPENCODE_COMPACTION_ENGINE = 'opencode';

/** One of opencode's summaries, checked and completed by ctxhost. */
export interface ReviewedOpencodeCompaction {
  summaryId: string;
  /** Text ctxhost adds beside the summary on every request after it: the missed facts, the ledger, the re-read files. */
  addenda: Extract<Part, { type: 'text' }>[];
  report: CompactionReport;
  /** The summary as ctxhost holds it: opencode's text, the addenda, the ledger in `meta.ledger`. */
  carrier: Message;
  /** opencode ids of the messages the compaction took out of view. */
  dropped: ReadonlySet<string>;
}

export interface OpencodeCompactionReviewer {
  /** The review of one summary, made once (the first caller starts it); undefined when it cannot be made. Never throws. */
  review(sessionId: string, summaryId: string): Promise<ReviewedOpencodeCompaction | undefined>;
  /** `session.compacted`: reviews the session's newest summary. */
  compacted(sessionId: string): Promise<void>;
  forget(sessionId: string): void;
  /** Resolves when every review and record started so far is done. */
  settled(): Promise<void>;
}

/**
 * Checks every summary opencode writes (its own compactions and those ctxhost
 * asks for) as core checks the host's: probes from the span it replaced
 * against the summary and the tail kept, the ledger, and the files the span
 * touched re-read through the `rehydrate` hook (core's `completeCompaction`).
 * The result is recorded in ctxhost's store as a compaction (engine
 * `opencode`: the fidelity score and missed probes in its report, the mirror
 * now what opencode sends) and logged; the addenda go beside the summary in
 * every request after it (`createCompactionAddendumTransform`).
 */
export function createOpencodeCompactionReviewer(
  host: Host,
  actions: Pick<OpencodeActions, 'messages'>,
  registry: MirrorRegistry,
): OpencodeCompactionReviewer {
  const reviews = new Map<string, Map<string, Promise<ReviewedOpencodeCompaction | undefined>>>();
  const pending = new Set<Promise<unknown>>();
  const track = <T>(promise: Promise<T>): Promise<T> => {
    pending.add(promise);
    void promise.finally(() => pending.delete(promise));
    return promise;
  };

  const reviewsOf = (sessionId: string) => {
    let bySummary = reviews.get(sessionId);
    if (bySummary === undefined) {
      bySummary = new Map();
      reviews.set(sessionId, bySummary);
    }
    return bySummary;
  };

  const start = (sessionId: string, summaryId: string, entries?: readonly OpencodeEntry[]) => {
    const bySummary = reviewsOf(sessionId);
    let review = bySummary.get(summaryId);
    if (review === undefined) {
      review = track(
        reviewOnce(sessionId, summaryId, entries).catch((error: unknown) => {
          host.logger.error(`ctxhost could not check opencode's compaction ${summaryId}`, { error: String(error) });
          return undefined;
        }),
      );
      bySummary.set(summaryId, review);
      // Only the newest summary's check is read again (its ledger carries on into the next one).
      for (const older of [...bySummary.keys()].slice(0, -KEPT_REVIEWS)) bySummary.delete(older);
    }
    return review;
  };

  const reviewOnce = async (sessionId: string, summaryId: string, given?: readonly OpencodeEntry[]) => {
    const entries = given ?? (await actions.messages(sessionId));
    const span = compactionSpanOf(entries, summaryId);
    if (span === undefined) return undefined;
    const state = registry.stateOf(sessionId);
    const reason = state.requestedSummary ?? reasonOf(span);
    state.requestedSummary = undefined;
    const reviewed = await check(sessionId, span, reason);
    void track(
      record(sessionId, reviewed).catch((error: unknown) =>
        host.logger.error(`ctxhost could not record opencode's compaction ${summaryId}`, { error: String(error) }),
      ),
    );
    return reviewed;
  };

  const check = async (
    sessionId: string,
    span: OpencodeCompactionSpan,
    reason: CompactionReason,
  ): Promise<ReviewedOpencodeCompaction> => {
    const known = reviewsOf(sessionId);
    const before = await toMessages(span.before, known);
    const summaryId = span.summary.info.id;
    const tail = await toMessages(span.tail, known);
    const tailIds = new Set(span.tail.map(({ info }) => info.id));
    const dropped = before.filter((message) => !tailIds.has(opencodeMessageId(message.id)));
    const summary = asSummary(span.summary, dropped);
    const after = [summary, ...tail];
    const session = await host.session(sessionId);
    const count = (messages: readonly Message[]) => host.counter.countAll(messages);
    const completed = await completeCompaction(
      host,
      before,
      {
        messages: after,
        report: {
          engine: OPENCODE_COMPACTION_ENGINE,
          reason,
          tokensBefore: count(before),
          tokensAfter: count(after),
          messagesBefore: before.length,
          messagesAfter: after.length,
          summary: { tokens: count([summary]), source: 'model', messagesCovered: dropped.length },
          notes: [`opencode's summary (${summaryId}), checked by ctxhost; what it missed is added beside it`],
        },
      },
      { sessionId, contextWindow: contextWindowOf(session, host.config) ?? Number.MAX_SAFE_INTEGER },
    );
    const carrier = completed.messages.find((message) => message.id === summaryId) ?? summary;
    return {
      summaryId,
      addenda: carrier.parts.filter(
        (part): part is Extract<Part, { type: 'text' }> => part.type === 'text' && isCompactionAddendum(part),
      ),
      report: completed.report,
      carrier,
      dropped: new Set(dropped.map((message) => opencodeMessageId(message.id))),
    };
  };

  /** The mirror becomes what opencode sends: the checked summary, then what it kept and what came after. */
  const record = async (sessionId: string, reviewed: ReviewedOpencodeCompaction) => {
    const session = await host.session(sessionId);
    await session.exclusive(async () => {
      const kept = session
        .messages()
        .filter(
          (message) =>
            !isSummaryMessage(message) &&
            message.id !== reviewed.summaryId &&
            !reviewed.dropped.has(opencodeMessageId(message.id)),
        );
      await session.applyCompaction([reviewed.carrier, ...kept], reviewed.report);
    });
    const fidelity = reviewed.report.fidelity;
    if (fidelity === undefined) return;
    const missed = fidelity.missed.map((probe) => `${probe.kind} ${probe.text}`).join('; ');
    host.logger.info(
      `opencode's compaction of session ${sessionId}: ${Math.round(fidelity.candidateScore * 100)}% of ${fidelity.probes} probes in its summary${missed === '' ? '' : ` (missed: ${missed}; ${fidelity.added} added beside it)`}; ${reviewed.report.rehydrated?.files.length ?? 0} files re-read`,
    );
  };

  return {
    review: (sessionId, summaryId) => start(sessionId, summaryId),
    async compacted(sessionId) {
      const entries = await actions.messages(sessionId);
      const summary = newestSummary(entries);
      if (summary !== undefined) await start(sessionId, summary.info.id, entries);
    },
    forget: (sessionId) => void reviews.delete(sessionId),
    settled: async () => {
      while (pending.size > 0) await Promise.all(pending);
    },
  };
}

/** opencode's messages as ctxhost's; a summary already checked is the checked one (its ledger carries on). */
async function toMessages(
  entries: readonly OpencodeEntry[],
  known: ReadonlyMap<string, Promise<ReviewedOpencodeCompaction | undefined>>,
): Promise<Message[]> {
  const messages: Message[] = [];
  for (const entry of entries) {
    if (isCompletedSummary(entry)) {
      const checked = await known.get(entry.info.id);
      messages.push(checked?.carrier ?? asSummary(entry, []));
      continue;
    }
    const converted = toCtxhostMessages(entry.info, entry.parts, new Map()).messages;
    messages.push(...converted.filter((message) => message.parts.length > 0));
  }
  return messages;
}

function asSummary(entry: OpencodeEntry, covers: readonly Message[]): Message {
  const [message] = toCtxhostMessages(entry.info, entry.parts, new Map()).messages;
  return {
    ...message!,
    meta: {
      ...message!.meta,
      summary: { covers: coveredSpanOf(covers) ?? [], engine: OPENCODE_COMPACTION_ENGINE, source: 'model' },
    },
  };
}

/** Why opencode compacted, from its marker: after an overflow, on its own threshold, or asked (the user's /compact). */
function reasonOf(span: OpencodeCompactionSpan): CompactionReason {
  if (span.overflow) return 'recovery';
  return span.auto ? 'threshold' : 'manual';
}
