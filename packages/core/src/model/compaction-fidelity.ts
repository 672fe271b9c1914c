/*
 * The fidelity a compaction report carries (the probes themselves are derived
 * and checked in fidelity/).
 */

/** What a probe checks for: the kinds of fact users say a compaction loses. */
export const PROBE_KINDS = ['file', 'command', 'error', 'constraint', 'ask', 'decision', 'identifier'] as const;
export type ProbeKind = (typeof PROBE_KINDS)[number];

/** A probe as a report carries it. */
export interface MissedProbe {
  kind: ProbeKind;
  text: string;
}

/**
 * How much of the replaced span the compaction kept, by deterministic probes
 * (no model call). Carried by every compaction report.
 */
export interface CompactionFidelity {
  /** Share of the probes found in what the model sees after the compaction (after ctxhost added what was missing); 1 with no probes. */
  score: number;
  /** Share found in what the engine returned, before anything was added. */
  candidateScore: number;
  probes: number;
  /** Probes per kind: how many the engine's result kept (`found`), and how many the model sees after ctxhost added what was missing (`kept`). */
  byKind: Partial<Record<ProbeKind, { probes: number; found: number; kept: number }>>;
  /** Probes the engine's result missed (at most FIDELITY_LIMITS.missedInReport, newest first). */
  missed: MissedProbe[];
  /** Of the missed probes, how many ctxhost added beside the summary. */
  added: number;
}
