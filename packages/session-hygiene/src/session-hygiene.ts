import {
  contextWindowOf,
  lowWaterMark,
  markRequestCompacted,
  requestCompactedBy,
  REQUEST_STAGE,
  runCompaction,
  type Host,
  type ModelRequest,
  type Plugin,
  type Session,
} from '@ctxhost/core';

export const SESSION_HYGIENE = 'session-hygiene';

/** Hermes's gateway session hygiene (`gateway/run.py`) uses 85%: higher than the engine's threshold on purpose (at 50% long gateway sessions compressed every turn). */
export const HYGIENE_THRESHOLD = 0.85;
/** Sessions shorter than this are left alone. */
export const HYGIENE_MIN_MESSAGES = 4;
/** A session hygiene leaves at this share of the window or more gets a warning (once, until it drops under). */
export const HYGIENE_WARN_AT = 0.95;

/**
 * The safety net before a turn (Hermes' gateway session hygiene): when a
 * session that escaped the engine reaches 85% of the window — by the API's
 * count from the last turn when known, an estimate otherwise — it is
 * compressed with the active engine. The transcript changes only when the
 * compaction succeeded; a failure is reported and the request goes out as it was.
 */
export function createSessionHygiene(): Plugin {
  return {
    name: SESSION_HYGIENE,
    apply(host) {
      /** Sessions warned that they stay at 95% or more; cleared when one drops under. */
      const warned = new Set<string>();
      host.hooks.sessionDeleted.tapPromise(SESSION_HYGIENE, async ({ sessionId }) => {
        warned.delete(sessionId);
      });
      host.hooks.beforeRequest.tapPromise(
        { name: SESSION_HYGIENE, stage: REQUEST_STAGE.hygiene },
        async (request, context) => {
          // One decision per request: the engine compacted this one already.
          if (!host.config.compression.enabled || requestCompactedBy(request) !== undefined) return request;
          const session = await host.session(request.sessionId);
          const window = context.contextWindow ?? contextWindowOf(session, host.config);
          if (window === undefined || request.messages.length < HYGIENE_MIN_MESSAGES) return request;
          if (session.promptSize().tokens < HYGIENE_THRESHOLD * window) {
            warned.delete(session.id);
            return request;
          }
          const sent = await compressForHygiene(host, session, request, window, context.signal);
          if (sent !== undefined) await warnIfStillFull(host, session, window, warned);
          return sent ?? request;
        },
      );
    },
  };
}

/**
 * Hermes's gateway warns when a session is still very large after its hygiene
 * compression: nothing more could be removed (the protected recent turns alone
 * fill the window), so the next request may overflow. Said once per session.
 */
async function warnIfStillFull(host: Host, session: Session, window: number, warned: Set<string>): Promise<void> {
  const ratio = session.promptSize().tokens / window;
  if (ratio < HYGIENE_WARN_AT) {
    warned.delete(session.id);
    return;
  }
  if (warned.has(session.id)) return;
  warned.add(session.id);
  await host.toast({
    sessionId: session.id,
    level: 'warning',
    title: 'Session still near its window',
    text: `After session hygiene the session is at ${Math.round(ratio * 100)}% of its ${window.toLocaleString('en-US')}-token window: compaction could not remove more (the recent turns it keeps fill it). The next request may overflow; start a new session, or lower compression.protect_last_n.`,
    source: SESSION_HYGIENE,
  });
}

/** The request with the compacted messages, the request as it was when nothing changed, undefined when compaction failed (reported). */
async function compressForHygiene(
  host: Host,
  session: Session,
  request: ModelRequest,
  contextWindow: number,
  signal: AbortSignal | undefined,
): Promise<ModelRequest | undefined> {
  try {
    // Through core's runCompaction, so `compaction.before` (instructions, veto) and the started/failed events apply here too.
    const outcome = await runCompaction(host, session, {
      reason: 'hygiene',
      contextWindow,
      // A safety net must get well under it: aim at the low-water mark under the engine's threshold, so the
      // tail may keep fewer than protect_last_n and the next requests append to a stable prefix.
      targetTokens: lowWaterMark(host.config.compression.threshold, contextWindow),
      ...(signal === undefined ? {} : { signal }),
    });
    if (outcome.status === 'failed') throw new Error(outcome.error);
    if (outcome.status !== 'completed') return request;
    return markRequestCompacted({ ...request, messages: outcome.messages }, 'hygiene');
  } catch (error) {
    host.logger.warn(`${SESSION_HYGIENE}: compaction failed; the session is left as it was`, {
      sessionId: session.id,
      error: String(error),
    });
    await host.toast({
      sessionId: session.id,
      level: 'warning',
      title: 'Session hygiene could not compact',
      text: `The session is over ${HYGIENE_THRESHOLD * 100}% of its window and compaction failed: ${String(error)}. Nothing was changed.`,
      source: SESSION_HYGIENE,
    });
    return undefined;
  }
}
