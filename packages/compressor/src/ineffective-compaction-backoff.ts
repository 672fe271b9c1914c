import { COMPRESSOR } from './constants.js';

/**
 * Keeps a session from being compacted on every turn when compaction cannot
 * get it under the threshold. At a small window, `protect_last_n` alone can hold
 * more than the threshold: each compaction then saves a few percent, the next
 * turn is over again, and every turn pays a summary call and a broken cache.
 * After a threshold compaction that saved less than `minSavings` of the prompt,
 * the next one waits until the prompt has grown by `regrowth` × window since the
 * one that did not help, so there is new history worth summarizing. A compaction
 * (of any reason) that left the prompt at or over the threshold could not help
 * either: the next threshold compaction waits until the prompt has grown by
 * `regrowth` × window from where that one left it. This is the engine's own
 * guard, so it holds on every path that asks `shouldCompress` (wrappers, the
 * stateless path), not only the host's engine plugin.
 */
export interface IneffectiveCompactionBackoff {
  /** Whether a session this large may be compacted now (false while backing off). */
  allows(sessionId: string, promptTokens: number, contextWindow: number): boolean;
  /** Records a threshold compaction the engine is about to run, at this prompt size. */
  started(sessionId: string, promptTokens: number): void;
  /**
   * Records how much the compaction of `sessionId` saved, by the engine's own count; returns the prompt size
   * the next threshold compaction waits for, when it could not help. `weakCounts`: a threshold compaction,
   * for which saving under `ineffectiveSavings` is ineffective too; `threshold`: the share of the window.
   */
  finished(
    sessionId: string,
    sizes: { tokensBefore: number; tokensAfter: number; contextWindow: number; threshold: number },
    weakCounts?: boolean,
  ): number | undefined;
  /** Forgets a session (a recovery rewrote it, so what it learned no longer holds). */
  forget(sessionId: string): void;
}

interface SessionRecord {
  /** The prompt size when the last threshold compaction started. */
  startedAt: number;
  /** The prompt size the next threshold compaction waits for; undefined when the last one helped. */
  resumeAt: number | undefined;
}

export function createIneffectiveCompactionBackoff(
  options: { maxSessions?: number } = {},
): IneffectiveCompactionBackoff {
  const maxSessions = options.maxSessions ?? 1_024;
  // Insertion order is recency: a session touched again moves to the end, the oldest is dropped first.
  const records = new Map<string, SessionRecord>();
  const remember = (sessionId: string, record: SessionRecord) => {
    records.delete(sessionId);
    records.set(sessionId, record);
    if (records.size > maxSessions) records.delete(records.keys().next().value as string);
  };
  return {
    allows(sessionId, promptTokens) {
      const resumeAt = records.get(sessionId)?.resumeAt;
      return resumeAt === undefined || promptTokens >= resumeAt;
    },
    started(sessionId, promptTokens) {
      remember(sessionId, { startedAt: promptTokens, resumeAt: undefined });
    },
    finished(sessionId, { tokensBefore, tokensAfter, contextWindow, threshold }, weakCounts = true) {
      const record = records.get(sessionId) ?? { startedAt: tokensBefore, resumeAt: undefined };
      const regrowth = COMPRESSOR.ineffectiveRegrowth * contextWindow;
      const weak =
        weakCounts &&
        (tokensBefore <= 0 || (tokensBefore - tokensAfter) / tokensBefore < COMPRESSOR.ineffectiveSavings);
      const stillOver = tokensAfter >= threshold * contextWindow;
      record.resumeAt = weak
        ? Math.ceil(record.startedAt + regrowth)
        : stillOver
          ? Math.ceil(tokensAfter + regrowth)
          : undefined;
      remember(sessionId, record);
      return record.resumeAt;
    },
    forget(sessionId) {
      records.delete(sessionId);
    },
  };
}
