import {
  boundAfterFit,
  boundAfterRejection,
  configuredWindowOf,
  contextWindowOf,
  formatTokens,
  learnedWindowBound,
  resolveContextWindow,
  setLearnedSessionWindow,
  setLearnedWindowBound,
  type Host,
  type ParsedTokenLimitError,
  type Session,
  type WindowBound,
} from '@ctxhost/core';
import { AUTO_COMPACT } from './recovery-steps.js';

/** What one session learned from overflows that named no limit, and the window it had before. */
interface SessionBound {
  bound: WindowBound | undefined;
  /** The window this session planned with before the bound was applied, and the one applied. */
  believed?: number | undefined;
  applied?: number;
}

/** An overflow whose text names no limit (OpenAI's Responses API, a bare "prompt is too long", a window stop). */
export function namesNoLimit(error: ParsedTokenLimitError): boolean {
  return error.maxTokens === undefined && error.kind !== 'request_too_large' && error.kind !== 'non_empty_content';
}

export interface UnstatedLimitLearning {
  /** The model a session's requests go to (the per-model bound is kept under it). */
  sentTo(sessionId: string, model: string): void;
  /** The session's prompt was refused by an overflow that named no limit. */
  rejected(session: Session): void;
  /** A prompt of `tokens` was answered: a bound learned before becomes the session's window, or relaxes. */
  fitted(session: Session, tokens: number): Promise<void>;
  forget(sessionId: string): void;
}

/**
 * Keeps what a probe found: the smallest prompt refused and the largest answered. Once a prompt fits after a
 * refusal, the largest answered is the session's window (`session.contextWindow`, which the monitor, preemptive
 * compaction and the compaction line read) and, per model, the window of this host's later sessions and requests,
 * so the next growth past the limit is compacted before it is sent instead of probed again with 400s. Said once
 * (a toast for the session, a log line for the model); a larger prompt answered later relaxes it, and one as large
 * as the smallest refused forgets it.
 */
export function createUnstatedLimitLearning(host: Host): UnstatedLimitLearning {
  const sessions = new Map<string, SessionBound>();
  const models = new Map<string, string>();

  const boundOf = (sessionId: string): WindowBound | undefined => {
    const model = models.get(sessionId);
    // The model's bound first: another session, or an answered stateless request, may have moved it since this one stored its own.
    return (model === undefined ? undefined : learnedWindowBound(host, model)) ?? sessions.get(sessionId)?.bound;
  };

  const store = (sessionId: string, bound: WindowBound | undefined): void => {
    const own = sessions.get(sessionId) ?? { bound: undefined };
    own.bound = bound;
    sessions.set(sessionId, own);
    const model = models.get(sessionId);
    if (model !== undefined) setLearnedWindowBound(host, model, bound);
  };

  return {
    sentTo(sessionId, model) {
      models.set(sessionId, model);
    },
    rejected(session) {
      store(session.id, boundAfterRejection(boundOf(session.id), session.promptSize().tokens));
    },
    async fitted(session, tokens) {
      const before = boundOf(session.id);
      if (before === undefined) return;
      const after = boundAfterFit(before, tokens);
      if (after?.fits === before.fits && after?.rejected === before.rejected) return;
      store(session.id, after);
      await applyWindow(host, session, sessions.get(session.id)!, before, after, models.get(session.id));
    },
    forget(sessionId) {
      sessions.delete(sessionId);
      models.delete(sessionId);
    },
  };
}

/** Makes the bound's fit the session's window (said when it lowers it), or gives back the window it had when forgotten. */
async function applyWindow(
  host: Host,
  session: Session,
  own: SessionBound,
  before: WindowBound,
  bound: WindowBound | undefined,
  model: string | undefined,
): Promise<void> {
  if (bound?.fits === undefined) {
    const configured = configuredWindowOf(session);
    // Capped by the model's bound when it opened (an integration's session or request), and not moved since.
    const inherited = own.applied === undefined && configured !== undefined && session.contextWindow === before.fits;
    if ((own.applied !== undefined && session.contextWindow === own.applied) || inherited) {
      // A session that inherited the model's bound goes back to the window it was configured with (the integration's), else the config's.
      session.contextWindow =
        own.believed ??
        configured?.window ??
        (model === undefined ? undefined : resolveContextWindow(host.config, model));
      host.logger.info(
        `${AUTO_COMPACT}: a prompt as large as one refused was answered; the learned window is forgotten`,
        {
          sessionId: session.id,
        },
      );
    }
    own.applied = undefined;
    return;
  }
  const current = contextWindowOf(session, host.config);
  // A window that is the model's bound already (a session opened after it was learned) is no window of its own: the one
  // it was configured with is (an integration's explicit window), when remembered.
  if (!('believed' in own)) own.believed = current === before.fits ? configuredWindowOf(session)?.window : current;
  const window = own.believed === undefined ? bound.fits : Math.min(own.believed, bound.fits);
  if (window === current) return;
  const lowered = current === undefined || window < current;
  // A learned cap: a driver that caps the session's window at each turn follows the model's bound from it, not from this.
  setLearnedSessionWindow(session, window);
  own.applied = window;
  if (!lowered) {
    host.logger.debug(`${AUTO_COMPACT}: a larger prompt was answered; the learned window relaxes to ${window}`, {
      sessionId: session.id,
    });
    return;
  }
  const where = model === undefined ? 'this session' : `this session and ${model}'s later requests in this process`;
  host.logger.info(`${AUTO_COMPACT}: window learned from an overflow that named no limit`, {
    sessionId: session.id,
    ...(model === undefined ? {} : { model }),
    fits: bound.fits,
    ...(bound.rejected === undefined ? {} : { rejected: bound.rejected }),
  });
  await host.toast({
    sessionId: session.id,
    level: 'info',
    title: 'Context window learned',
    text: `The API refused a prompt of about ${formatTokens(bound.rejected ?? window)} tokens without naming its limit and answered one of ${formatTokens(bound.fits)}; ctxhost uses ${formatTokens(window)} as the window of ${where}, so a prompt that grows past it is compacted before it is sent (a larger prompt answered later raises it).`,
    source: AUTO_COMPACT,
  });
}
