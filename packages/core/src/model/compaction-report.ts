import type { CompactionFidelity } from './compaction-fidelity.js';

/** Where a summary came from: the model, the model chunk by chunk, or extracted from the messages themselves. */
export type SummarySource = 'model' | 'chunked' | 'extractive' | 'tool-results';

/** Why a compaction ran. */
export type CompactionReason = 'threshold' | 'hygiene' | 'preemptive' | 'recovery' | 'manual' | 'strategy';

/** What one compaction did. Carried by `compaction.completed`. */
export interface CompactionReport {
  /** The engine or strategy that ran (`compressor`, `tokenBudget`, …). */
  engine: string;
  reason: CompactionReason;
  tokensBefore: number;
  tokensAfter: number;
  messagesBefore: number;
  messagesAfter: number;
  summary?: { tokens: number; source: SummarySource; messagesCovered: number };
  /** Tool outputs shortened in the projection (originals kept in the store). */
  prunedToolOutputs?: number;
  /** Steps taken, in order, for cascades and pipelines. */
  steps?: string[];
  notes?: string[];
  /** Probes from the replaced span, checked against what the model sees next (set for every compaction core runs or reviews). */
  fidelity?: CompactionFidelity;
  /** The ledger shown beside the summary: entries in view, entries folded into counts, its size. */
  ledger?: { entries: number; folded: number; tokens: number };
  /** Files re-read from disk after the compaction (rehydration) and what they cost. */
  rehydrated?: { files: string[]; tokens: number; skipped: string[] };
  /** How long the compaction took, from `compaction.started` to the result (set by core's compaction runner). */
  durationMs?: number;
}
