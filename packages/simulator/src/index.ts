export { startSimulator, type Simulator } from './server.js';
export { SIMULATOR_DEFAULTS, SimulatorOptionsSchema, type SimulatorOptions, type ModelLimits, type OverflowStyle } from './simulator-options.js';
export type { RecordedRequest } from './recorded-request.js';
export type { SimulatorStats } from './simulator-stats.js';
export { SimulatorError, SIMULATOR_ERROR_CODES, type SimulatorErrorCode } from './errors.js';
export { countTokens, countTextTokens, TOKENIZER } from './tokenizer.js';
export { validateRequest, MAX_CACHE_BREAKPOINTS, type ValidateOptions } from './validate-request.js';
export { createFaultPlan, mulberry32, FAULT_KINDS, type Fault, type FaultKind, type RandomFaults } from './faults.js';
export { buildSummary, isSummaryRequest, SUMMARY_HEADINGS } from './responders/summary.js';
export { defaultTurn } from './responders/default.js';
export { toTurn, type ScriptedTurn } from './responders/scripted.js';
export { parseBetas, type SimulatorFeature, type FeatureContext } from './features.js';
export { builtInFeatures } from './handle-messages.js';
export { validateContextManagement, type ContextEdit, type Amount } from './context-management.js';
export {
  createContextEditingFeature,
  CONTEXT_MANAGEMENT_BETA,
  CLEAR_TOOL_USES,
  CLEAR_THINKING,
  CLEARED_TOOL_RESULT_TEXT,
  CONTEXT_EDITING_DEFAULTS,
  type AppliedEdit,
} from './context-editing.js';
export { createServerCompactionFeature, fromLastCompaction, COMPACTION_BETA, COMPACT_EDIT, COMPACTION_BLOCK, COMPACTION_DEFAULTS } from './server-compaction.js';
export { CACHE_LOOKBACK_BLOCKS } from './prompt-cache.js';
export type { MessagesRequest, ContentBlock, WireMessage, WireUsage, AssistantTurn, UsageOverride } from './wire.js';
