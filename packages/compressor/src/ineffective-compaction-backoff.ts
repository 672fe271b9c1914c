import { COMPRESSOR } from './constants.js';

/**
 * Keeps a session from being compacted on every turn when compaction cannot
 * get it under the threshold. At a small window, `protect_last_n` alone can hold
 * more than the threshold: each compaction then saves a few percent, the next
 * turn is over again, and every turn pays a summary call and a broken cache.
 * After a threshold compaction that saved less than `minSavings` of the prompt,
 * the next one waits until the prompt has grown by `regrowth` × window since the
 * one that did not help, so there is new history worth summarizing.
 */
export interface IneffectiveCompactionBackoff {
  /** Whether a session this large may be compacted now (false while backing off). */
  allows(sessionId: string, promptTokens: number, contextWindow: number): boolean;
  /** Records a threshold compaction the engine is about to run, at this prompt size. */
  started(sessionId: string, promptTokens: number): void;
  /** Records how much the compaction of `sessionId` saved, by the engine's own count; returns the prompt size the next threshold compaction waits for, when it was ineffective. */
  finished(sessionId: string, tokensBefore: number, tokensAfter: number, contextWindow: number): number | undefined;
  /** Forgets a session (a recovery rewrote it, so what it learned no longer holds). */
  forget(sessionId: string): void;
}

interface SessionRecord {
  /** The prompt size when the last threshold compaction started. */
  startedAt: number;
  ineffective: boolean;
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
    allows(sessionId, promptTokens, contextWindow) {
      const record = records.get(sessionId);
      if (record === undefined || !record.ineffective) return true;
      return promptTokens >= record.startedAt + COMPRESSOR.ineffectiveRegrowth * contextWindow;
    },
    started(sessionId, promptTokens) {
      remember(sessionId, { startedAt: promptTokens, ineffective: false });
    },
    finished(sessionId, tokensBefore, tokensAfter, contextWindow) {
      const record = records.get(sessionId);
      if (record === undefined) return undefined;
      record.ineffective =
        tokensBefore <= 0 || (tokensBefore - tokensAfter) / tokensBefore < COMPRESSOR.ineffectiveSavings;
      return record.ineffective
        ? Math.ceil(record.startedAt + COMPRESSOR.ineffectiveRegrowth * contextWindow)
        : undefined;
    },
    forget(sessionId) {
      records.delete(sessionId);
    },
  };
}
