import type { CompactionReason, CompactionReport } from '../model/compaction-report.js';
import type { Message } from '../model/message.js';
import type { CompressResult } from '../engines/context-engine.js';
import { CORE_ERROR_CODES, CtxhostError } from '../errors.js';
import { completeCompaction } from './complete-compaction.js';
import { rebaseOnFreshView } from './stale-compaction.js';
import { contextWindowOf } from './context-usage.js';
import { isAbortError } from './host-tasks.js';
import type { CompactionPlan } from './host-hooks.js';
import type { Host } from './host.js';
import type { ObservationEvent, Session } from './session.js';

export interface CompactOptions {
  /** What the summary should concentrate on (Hermes `/compress <focus>`, Claude Code `/compact [instructions]`). */
  focus?: string;
  /** Extra instructions for the summarizer. */
  instructions?: string;
  /** Why (default `manual`). */
  reason?: CompactionReason;
  /** Tokens the result should fit under (a recovery). */
  targetTokens?: number;
  /** The window to compress for; default: the session's. */
  contextWindow?: number;
  /** The messages to compress; default: the session's projection. */
  messages?: readonly Message[];
  /** Notes added to the applied report (a recovery's target, …). */
  notes?: readonly string[];
  signal?: AbortSignal;
}

/** How a compaction ended. Only `completed` changed the session. */
export type CompactOutcome =
  | Exclude<PrepareOutcome, { status: 'prepared' }>
  | { status: 'completed'; report: CompactionReport; messages: Message[] };

/** How preparing a compaction ended: `prepared` holds a result not yet applied to the session. */
export type PrepareOutcome =
  | { status: 'prepared'; report: CompactionReport; messages: Message[] }
  | { status: 'vetoed'; by: string; why: string }
  /** `messages`: what the engine returned, not applied. */
  | { status: 'unchanged'; report: CompactionReport; messages: Message[] }
  | { status: 'failed'; error: string }
  | { status: 'no-window' };

/**
 * Runs the active engine on a session with every compaction hook:
 * `compaction.before` (instructions, veto), `compaction.started`, then either
 * the applied result (`compaction.completed`, with its duration) or
 * `compaction.failed` with the reason. Started and failed are kept in the
 * store beside `compaction.applied`. An abort is rethrown, never reported as a failure.
 *
 * A result computed on an out-of-date view (another host appended to the
 * session meanwhile: the store's compare-and-set refuses it) is never
 * applied as it is: it is followed by what was appended when the fresh view
 * still opens with its input, else redone once on the fresh view, else
 * `failed`. Each refusal is recorded as a failed compaction.
 */
export async function runCompaction(
  host: Host,
  session: Session,
  options: CompactOptions = {},
): Promise<CompactOutcome> {
  for (let attempt = 1; ; attempt++) {
    const input = options.messages ?? session.messages().slice();
    const prepared = await prepareCompaction(host, session, { ...options, messages: input });
    if (prepared.status !== 'prepared') return prepared;
    let stale: CtxhostError;
    try {
      await session.applyCompaction(prepared.messages, prepared.report);
      return { status: 'completed', report: prepared.report, messages: prepared.messages };
    } catch (error) {
      if (!CtxhostError.hasCode(error, CORE_ERROR_CODES.sessionStale)) throw error;
      stale = error;
    }
    const rebased = rebaseOnFreshView(host, session, input, prepared);
    if (rebased !== undefined) {
      try {
        await session.applyCompaction(rebased.messages, rebased.report);
        return { status: 'completed', ...rebased };
      } catch (error) {
        if (!CtxhostError.hasCode(error, CORE_ERROR_CODES.sessionStale)) throw error;
        stale = error;
      }
    }
    const redo = attempt === 1 && options.messages === undefined;
    const error = `not applied: ${stale.message}${redo ? '; redone on the fresh view' : ''}`;
    await recordFailure(host, session, prepared.report, error);
    if (!redo) return { status: 'failed', error };
  }
}

async function recordFailure(host: Host, session: Session, report: CompactionReport, error: string): Promise<void> {
  const { engine, reason, durationMs = 0 } = report;
  const event = { type: 'compaction.failed' as const, reason, engine, durationMs, error };
  if (session.recordEvent !== undefined) await session.recordEvent(event);
  else await host.store.append(session.id, event);
  await host.hooks.compactionFailed.promise({ sessionId: session.id, reason, engine, durationMs, error });
}

/**
 * Everything `runCompaction` does but applying the result: the hooks up to
 * the engine's result, which the caller applies (`session.applyCompaction`)
 * or drops. Background compaction prepares from a snapshot this way.
 */
export async function prepareCompaction(
  host: Host,
  session: Session,
  options: CompactOptions = {},
): Promise<PrepareOutcome> {
  const reason = options.reason ?? 'manual';
  const engine = host.engine.name;
  const contextWindow = options.contextWindow ?? contextWindowOf(session, host.config);
  if (contextWindow === undefined) return { status: 'no-window' };
  const plan = await host.hooks.compactionBefore.promise(initialPlan(session.id, reason, options));
  const record = async (event: ObservationEvent): Promise<void> => {
    if (session.recordEvent !== undefined) await session.recordEvent(event);
    else await host.store.append(session.id, event);
  };
  if (plan.veto !== undefined) {
    const error = `vetoed by ${plan.veto.by}: ${plan.veto.why}`;
    await record({ type: 'compaction.failed', reason, engine, durationMs: 0, error, vetoed: true });
    await host.hooks.compactionFailed.promise({
      sessionId: session.id,
      reason,
      engine,
      durationMs: 0,
      error,
      vetoed: true,
    });
    return { status: 'vetoed', by: plan.veto.by, why: plan.veto.why };
  }
  const messages = options.messages ?? session.messages().slice();
  const tokensBefore = host.counter.countAll(messages);
  const started = {
    reason,
    engine,
    ...(plan.focus === undefined ? {} : { focus: plan.focus }),
    tokensBefore,
    messagesBefore: messages.length,
  };
  await record({
    type: 'compaction.started',
    ...started,
    ...(plan.instructions.length === 0 ? {} : { instructions: plan.instructions }),
  });
  await host.hooks.compactionStarted.promise({ sessionId: session.id, ...started });
  const startedAt = performance.now();
  const fail = async (error: string): Promise<void> => {
    const durationMs = Math.round(performance.now() - startedAt);
    await record({ type: 'compaction.failed', reason, engine, durationMs, error });
    await host.hooks.compactionFailed.promise({ sessionId: session.id, reason, engine, durationMs, error });
  };
  let result: CompressResult;
  try {
    result = await host.engine.compress(messages, {
      sessionId: session.id,
      contextWindow,
      counter: host.counter,
      reason,
      original: (partId) => session.original(partId),
      ...(plan.focus === undefined ? {} : { focus: plan.focus }),
      ...(plan.instructions.length === 0 ? {} : { instructions: plan.instructions }),
      ...(options.targetTokens === undefined ? {} : { targetTokens: options.targetTokens }),
      ...(host.summarizer === undefined ? {} : { summarizer: host.summarizer }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } catch (error) {
    if (isAbortError(error) || options.signal?.aborted) throw error;
    const message = `engine ${engine} threw: ${error instanceof Error ? error.message : String(error)}`;
    await fail(message);
    return { status: 'failed', error: message };
  }
  // Checked (probes), completed (ledger) and rehydrated before it is used; timed with the engine.
  result = await completeCompaction(host, messages, result, {
    sessionId: session.id,
    contextWindow,
    ...(options.targetTokens === undefined ? {} : { targetTokens: options.targetTokens }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const report: CompactionReport = { ...result.report, durationMs: Math.round(performance.now() - startedAt) };
  // Nothing to gain (a session too short for the engine's protected head and tail): the session is left as it was.
  if (report.tokensAfter >= report.tokensBefore) {
    await fail(
      `saved nothing (${report.tokensBefore} → ${report.tokensAfter} tokens)${report.notes?.length ? `: ${report.notes.join('; ')}` : ''}`,
    );
    return { status: 'unchanged', report, messages: result.messages };
  }
  const applied =
    options.notes === undefined || options.notes.length === 0
      ? report
      : { ...report, notes: [...(report.notes ?? []), ...options.notes] };
  return { status: 'prepared', report: applied, messages: result.messages };
}

function initialPlan(sessionId: string, reason: CompactionReason, options: CompactOptions): CompactionPlan {
  return {
    sessionId,
    reason,
    ...(options.focus === undefined ? {} : { focus: options.focus }),
    instructions: options.instructions === undefined ? [] : [options.instructions],
  };
}
