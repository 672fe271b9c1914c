export { createCompressor, compressorEngineFactory, type CompressorOptions } from './compressor.js';
export { COMPRESSOR } from './constants.js';
export { SUMMARY_SECTIONS, SUMMARY_TEMPLATE, summaryInstructions } from './summary-template.js';
export { summaryBudget } from './summary-budget.js';
export { pruneToolOutputs } from './prune-tool-outputs.js';
export { findBoundaries, isResultMessage, type Boundaries, type BoundaryOptions } from './find-boundaries.js';
export { summarizeMiddle, splitToFit, type MiddleSummary } from './summarize-middle.js';
export { extractiveSummary } from './extractive-summary.js';
export { assembleProjection, sanitizeToolPairs, summaryRole } from './assemble-projection.js';
export { compressorSettings, type CompressorSettings } from './compressor-settings.js';
export { COMPRESSOR_ERROR_CODES, CompressorError, type CompressorErrorCode } from './errors.js';
export { createSummarizerCooldown, type SummarizerCooldown } from './summarizer-cooldown.js';
export { collectWorkingState, renderWorkingState, WORKING_STATE_HEADING, type WorkingState } from './working-state.js';
export {
  createBillPolicy,
  cycleDollarsPerRequest,
  orderSize,
  summaryPassDollars,
  tokenPrices,
  type BillPolicy,
  type BillPolicyOptions,
  type CompactionMechanism,
  type CompactionOption,
  type EarlyCompactionQuestion,
  type PricedOption,
  type TokenPrices,
} from './bill-policy.js';
