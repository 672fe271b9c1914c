import type { ProbeKind } from '../model/compaction-fidelity.js';

export {
  PROBE_KINDS,
  type ProbeKind,
  type MissedProbe,
  type CompactionFidelity,
} from '../model/compaction-fidelity.js';

/**
 * One fact of a span a compaction replaces, derived without a model, and how
 * to recognise it in what the model sees next: every `exact` term present
 * (paths and identifiers, compared as whole tokens), and at least `quorum` of
 * the `words` (content words of a sentence, so a summary may paraphrase).
 */
export interface Probe {
  kind: ProbeKind;
  /** The fact as a person reads it (`npm test → exit 1`, a user's sentence). */
  text: string;
  exact: string[];
  words: string[];
  quorum: number;
}

export const FIDELITY_LIMITS = {
  /** Probes kept per kind, newest first: the report and the check stay bounded on any span. */
  perKind: { file: 40, command: 30, error: 20, constraint: 20, ask: 3, decision: 12, identifier: 30 },
  missedInReport: 40,
  /** Characters of a sentence probe's text. */
  sentenceChars: 240,
} as const satisfies { perKind: Record<ProbeKind, number>; missedInReport: number; sentenceChars: number };
