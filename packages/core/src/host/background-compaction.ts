import { CORE_ERROR_CODES, CtxhostError } from '../errors.js';
import type { Message } from '../model/message.js';
import { validateProjection } from '../model/validate-projection.js';
import { isAbortError } from './host-tasks.js';
import type { Host } from './host.js';
import { prepareCompaction, type CompactOutcome, type PrepareOutcome } from './run-compaction.js';
import type { Session } from './session.js';

/**
 * Share of the compaction threshold past which the next threshold compaction is prepared in the background
 * while the session's growth per request is not known yet (its first requests).
 */
export const BACKGROUND_COMPACTION_SHARE = 0.85;

/** Requests ahead of the threshold, by the session's recent growth, at which the preparation starts. */
export const BACKGROUND_HORIZON_REQUESTS = 2;

/** Never prepared under this share of the threshold: one large request says little about the next ones. */
export const BACKGROUND_FLOOR_SHARE = 0.5;

/** Growths between requests remembered per session: the larger of the last ones predicts the next. */
const GROWTHS_KEPT = 3;

/**
 * Whether the threshold is near enough to prepare its compaction now: within `BACKGROUND_HORIZON_REQUESTS`
 * requests of the largest recent growth. Earlier, the snapshot would keep everything appended until the
 * threshold uncompacted (a larger prompt after the swap, so compactions come sooner) and a session that
 * ends before the threshold would pay for a summary it never uses.
 */
export function thresholdNear(promptTokens: number, thresholdTokens: number, growths: readonly number[]): boolean {
  if (promptTokens >= thresholdTokens || promptTokens < BACKGROUND_FLOOR_SHARE * thresholdTokens) return false;
  if (growths.length === 0) return promptTokens >= BACKGROUND_COMPACTION_SHARE * thresholdTokens;
  return promptTokens + BACKGROUND_HORIZON_REQUESTS * Math.max(...growths) >= thresholdTokens;
}

/** Records the prompt's size at a request: the growth since the previous request joins the recent ones (a drop, a compaction, does not). */
export function recordGrowth(state: { promptTokens?: number; growths: number[] }, promptTokens: number): void {
  if (state.promptTokens !== undefined && promptTokens > state.promptTokens) {
    state.growths.push(promptTokens - state.promptTokens);
    if (state.growths.length > GROWTHS_KEPT) state.growths.shift();
  }
  state.promptTokens = promptTokens;
}

/** A threshold compaction under way (or done) in the background, from a snapshot of the projection. */
export interface Preparation {
  /** The projection list the snapshot was taken from: while the session only appends, `messages()` is this same list. */
  readonly view: readonly Message[];
  /** How many messages the snapshot held. */
  readonly length: number;
  /** The engine's result; undefined when the work was cancelled. */
  readonly outcome: Promise<PrepareOutcome | undefined>;
  /** Stops the work (a stale snapshot, a deleted session). */
  cancel(): void;
}

export interface PrepareOptions {
  contextWindow: number;
  /** The size the compaction would aim for if it ran at the threshold (the low-water mark). */
  targetTokens: number;
  /** The prompt's size now. */
  promptTokens: number;
}

/**
 * Starts compacting a snapshot of the session's projection as a host task, so
 * the summarizer runs while the current turn does (or while the session sits
 * idle). The snapshot aims under the low-water mark by what the prompt still
 * grows before the threshold, so the swapped-in result, with what was appended
 * meanwhile, lands near the low-water mark rather than at the soft line.
 */
export function startPreparation(host: Host, session: Session, options: PrepareOptions): Preparation {
  const view = session.messages();
  const snapshot = view.slice();
  const stillToGrow = Math.max(0, host.config.compression.threshold * options.contextWindow - options.promptTokens);
  const targetTokens = Math.max(Math.floor(options.targetTokens / 2), options.targetTokens - stillToGrow);
  const own = new AbortController();
  const outcome = host.tasks
    .run('background-compaction', session.id, (signal) =>
      prepareCompaction(host, session, {
        reason: 'threshold',
        contextWindow: options.contextWindow,
        targetTokens,
        messages: snapshot,
        notes: ['prepared in the background'],
        signal: AbortSignal.any([signal, own.signal]),
      }),
    )
    .catch((error: unknown) => {
      if (isAbortError(error) || own.signal.aborted) return undefined;
      host.logger.warn('background compaction failed', { sessionId: session.id, error: String(error) });
      return undefined;
    });
  return { view, length: snapshot.length, outcome, cancel: () => own.abort(new Error('the snapshot is stale')) };
}

/** Whether the session has changed other than by appending since the snapshot (a compaction, an update, a revert). */
export function isStale(preparation: Preparation, session: Session): boolean {
  return session.messages() !== preparation.view;
}

/**
 * Waits for the preparation and applies it: the compacted snapshot followed by
 * every message appended since, in one `applyCompaction`. Undefined when it
 * cannot be used (stale, cancelled, saved nothing, or not a valid prompt with
 * what was appended): the caller compacts inline then. A result not used is
 * recorded as a failed compaction that says why, after its `compaction.started`.
 */
export async function swapIn(
  host: Host,
  session: Session,
  preparation: Preparation,
): Promise<CompactOutcome | undefined> {
  const prepared = await preparation.outcome;
  if (prepared?.status !== 'prepared') return undefined;
  if (isStale(preparation, session))
    return notUsed(host, session, prepared, 'the session changed other than by appending since the snapshot');
  const current = session.messages().slice();
  const appended = current.slice(preparation.length);
  const messages = [...prepared.messages, ...appended];
  const problems = validateProjection(messages);
  if (problems.length > 0)
    return notUsed(
      host,
      session,
      prepared,
      `with what was appended it is not a valid prompt (${problems[0]!.message})`,
    );
  const report = {
    ...prepared.report,
    tokensBefore: host.counter.countAll(current),
    tokensAfter: host.counter.countAll(messages),
    messagesBefore: current.length,
    messagesAfter: messages.length,
    notes: [
      ...(prepared.report.notes ?? []),
      `swapped in with ${appended.length} message${appended.length === 1 ? '' : 's'} appended since the snapshot`,
    ],
  };
  if (report.tokensAfter >= report.tokensBefore)
    return notUsed(
      host,
      session,
      prepared,
      `it saves nothing now (${report.tokensBefore} → ${report.tokensAfter} tokens)`,
    );
  try {
    await session.applyCompaction(messages, report);
  } catch (error) {
    if (!CtxhostError.hasCode(error, CORE_ERROR_CODES.sessionStale)) throw error;
    return notUsed(host, session, prepared, 'another writer changed the session since the snapshot');
  }
  return { status: 'completed', report, messages };
}

async function notUsed(
  host: Host,
  session: Session,
  prepared: Extract<PrepareOutcome, { status: 'prepared' }>,
  why: string,
): Promise<undefined> {
  const { engine, reason, durationMs = 0 } = prepared.report;
  const error = `prepared in the background but not used: ${why}`;
  const event = { type: 'compaction.failed' as const, reason, engine, durationMs, error };
  if (session.recordEvent !== undefined) await session.recordEvent(event);
  else await host.store.append(session.id, event);
  await host.hooks.compactionFailed.promise({ sessionId: session.id, reason, engine, durationMs, error });
  return undefined;
}
