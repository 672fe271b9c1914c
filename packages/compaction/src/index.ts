export { triggers, negate, type CompactionTrigger } from './triggers.js';
export {
  createCompactionIndex,
  type CompactionGroup,
  type CompactionIndex,
  type CompactionIndexOptions,
  type CompactionIndexView,
  type CompactionTotals,
  type InsertSummaryOptions,
} from './compaction-index.js';
export {
  createContext,
  type CompactionContext,
  type CompactionStrategy,
  type PreserveOptions,
} from './compaction-strategy.js';
export { truncation, TRUNCATION, TRUNCATION_DEFAULTS, type TruncationOptions } from './truncation.js';
export { slidingWindow, SLIDING_WINDOW, SLIDING_WINDOW_DEFAULTS, type SlidingWindowOptions } from './sliding-window.js';
export {
  toolResultCompaction,
  TOOL_RESULT_COMPACTION,
  TOOL_RESULT_COMPACTION_DEFAULTS,
  type ToolResultCompactionOptions,
} from './tool-result-compaction.js';
export {
  selectiveToolCall,
  SELECTIVE_TOOL_CALL,
  SELECTIVE_TOOL_CALL_DEFAULTS,
  type ToolCallStrategyOptions,
} from './selective-tool-call.js';
export {
  summarization,
  SUMMARIZATION,
  SUMMARIZATION_DEFAULTS,
  DEFAULT_SUMMARIZATION_PROMPT,
  type SummarizationOptions,
} from './summarization.js';
export type { SummarizeFunction } from './summarize-span.js';
export { toolResultsLine, TOOL_RESULT_PREVIEW_CHARS } from './tool-results-line.js';
export { pipeline, PIPELINE } from './pipeline.js';
export { tokenBudget, TOKEN_BUDGET, TOKEN_BUDGET_DEFAULTS, type TokenBudgetOptions } from './token-budget.js';
export {
  applyCompaction,
  dryRun,
  type ApplyCompactionOptions,
  type CompactionResult,
  type DryRunResult,
} from './apply-compaction.js';
export { validateProjection, type ProjectionProblem, type ProjectionProblemCode } from './validate-projection.js';
export { createCompactionPlugin, COMPACTION_PLUGIN, type CompactionPluginOptions } from './compaction-plugin.js';
export {
  CompactionError,
  COMPACTION_ERROR_CODES,
  type CompactionErrorCode,
  type CompactionErrorOptions,
} from './errors.js';
export { strategyEngineFactory, type StrategyBuildOptions } from './strategy-engine.js';
