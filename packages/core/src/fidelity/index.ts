export {
  PROBE_KINDS,
  FIDELITY_LIMITS,
  type Probe,
  type ProbeKind,
  type MissedProbe,
  type CompactionFidelity,
} from './probe.js';
export { deriveProbes } from './derive-probes.js';
export { missedProbes, probeFound, fidelityOf, messageTexts, PROBE_KIND_LABELS } from './check-probes.js';
export { pathsIn, identifiersIn, contentWords, createTermIndex, type TermIndex } from './text-terms.js';
export {
  extendLedger,
  fileContentHash,
  ledgerOf,
  EMPTY_LEDGER,
  type Ledger,
  type LedgerEntry,
  type LedgerFolded,
  type LedgerKind,
} from './ledger.js';
export { fitLedger, renderLedger, ledgerLine, LEDGER_HEADING } from './render-ledger.js';
export { renderMissed, MISSED_HEADING } from './render-missed.js';
export {
  reviewCompaction,
  newestLedger,
  summaryTextOf,
  isCompactionAddendum,
  ADDENDUM,
  type ReviewOptions,
  type ReviewedCompaction,
} from './review-compaction.js';
export {
  rehydrationPaths,
  renderRehydrated,
  REHYDRATED_HEADING,
  type RehydrateRequest,
  type RehydratedFile,
} from './rehydration.js';
export { readWorkspaceFiles, type ReadWorkspaceFilesOptions } from './read-workspace-files.js';
export { pathArgument, outputText, isWriteCall } from './span-facts.js';
