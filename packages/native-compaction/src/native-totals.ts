import type { Message } from '@ctxhost/core';
import { isCompactionPart, readNativeReport } from './native-report.js';

/** What native context management did for one session, summed over its responses, and why ctxhost fell back. */
export interface NativeTotals {
  editsApplied: number;
  clearedToolUses: number;
  clearedThinkingTurns: number;
  clearedInputTokens: number;
  compactions: number;
  compactionInputTokens: number;
  compactionOutputTokens: number;
  /** Why the client engine kept the context for some requests (each reason once, oldest first). */
  fallbacks: string[];
}

const empty = (): NativeTotals => ({
  editsApplied: 0,
  clearedToolUses: 0,
  clearedThinkingTurns: 0,
  clearedInputTokens: 0,
  compactions: 0,
  compactionInputTokens: 0,
  compactionOutputTokens: 0,
  fallbacks: [],
});

/** Per-session totals: one map, one delete on `session.deleted`. */
export function createNativeTotals() {
  const sessions = new Map<string, NativeTotals>();
  // A reply updated later (its readable copy written) is announced again: count it once.
  const counted = new Map<string, Set<string>>();
  const of = (sessionId: string): NativeTotals => {
    let totals = sessions.get(sessionId);
    if (totals === undefined) sessions.set(sessionId, (totals = empty()));
    return totals;
  };
  return {
    get: (sessionId: string): NativeTotals | undefined => {
      const totals = sessions.get(sessionId);
      return totals === undefined ? undefined : { ...totals, fallbacks: [...totals.fallbacks] };
    },
    /** Adds what the provider reported for one assistant reply. */
    record(sessionId: string, message: Message): void {
      const report = readNativeReport(message);
      const opaque = message.parts.filter(isCompactionPart).length;
      if (report === undefined && opaque === 0) return;
      const seen = counted.get(sessionId) ?? new Set<string>();
      counted.set(sessionId, seen);
      if (seen.has(message.id)) return;
      seen.add(message.id);
      const sum = of(sessionId);
      for (const edit of report?.appliedEdits ?? []) {
        sum.editsApplied++;
        sum.clearedToolUses += edit.clearedToolUses ?? 0;
        sum.clearedThinkingTurns += edit.clearedThinkingTurns ?? 0;
        sum.clearedInputTokens += edit.clearedInputTokens;
      }
      if (report?.compaction !== undefined) {
        sum.compactionInputTokens += report.compaction.inputTokens;
        sum.compactionOutputTokens += report.compaction.outputTokens;
      }
      sum.compactions += Math.max(opaque, report?.compaction === undefined ? 0 : 1);
    },
    /** Records, once per reason, why a request went without native compaction. */
    fallback(sessionId: string, reason: string): void {
      const sum = of(sessionId);
      if (!sum.fallbacks.includes(reason)) sum.fallbacks.push(reason);
    },
    delete: (sessionId: string) => {
      counted.delete(sessionId);
      return sessions.delete(sessionId);
    },
  };
}
