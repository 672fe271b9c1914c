export {
  NATIVE_COMPACTION,
  NATIVE_COMPACTION_DEFAULTS,
  MIN_COMPACTION_TRIGGER,
  NativeCompactionConfigSchema,
  nativeCompactionConfigSection,
  isNativeCompactionOn,
  type NativeCompactionConfig,
  type NativeCompactionConfigInput,
} from './config-schema.js';
export { readNativeCompactionConfig } from './read-native-compaction-config.js';
export {
  buildAnthropicContextManagement,
  anthropicTriggerTokens,
  CONTEXT_MANAGEMENT_BETA,
  COMPACTION_BETA,
  ON_DEMAND_COMPACTION_BETA,
  type AnthropicContextManagement,
} from './anthropic-context-management.js';
export { buildResponsesContextManagement } from './responses-context-management.js';
export { nativeSummaryPrompt, NATIVE_SUMMARY_BUDGET_TOKENS } from './summary-prompt.js';
export { isClaudeModel, isOpenAIModel, nativeTarget, type NativeTarget } from './native-support.js';
export {
  readNativeReport,
  isCompactionPart,
  compactionUsages,
  type AppliedEdit,
  type NativeReport,
} from './native-report.js';
export type { NativeTotals } from './native-totals.js';
export type { NativeCompactor, NativeCompactOptions, NativeCompactResult } from './native-compactor.js';
export { splitForNative, type NativeSplit } from './split-for-native.js';
export {
  createNativeCompactionEngine,
  NATIVE_ENGINE,
  type NativeCompactionEngineOptions,
} from './native-compaction-engine.js';
export { nativeEngineFromConfig } from './native-engine-from-config.js';
export { createCompactAtIdle, COMPACT_AT_IDLE, type CompactAtIdleOptions } from './compact-at-idle.js';
export {
  predictNativeCost,
  type NativeCostPrediction,
  type NativeCostQuestion,
  type NativeMechanism,
} from './predict-native-cost.js';
export { withServerFirst, serverFirstThreshold, SERVER_FIRST, type ServerFirstOptions } from './server-first-engine.js';
export {
  createNativeCompactionPlugin,
  withAnthropicContextManagement,
  withResponsesContextManagement,
  NATIVE_COMPACTION_STAGE,
  type NativeCompactionPlugin,
  type NativeCompactionPluginOptions,
} from './native-compaction-plugin.js';
export { nativeRequestFieldsOf, type NativeRequestFields } from './native-request-fields.js';
export {
  NATIVE_COMPACTION_ERROR_CODES,
  NativeCompactionError,
  NativeCompactionFailedError,
  NativeCompactionUnavailableError,
  type NativeCompactionErrorCode,
} from './errors.js';
export { warnDeprecatedOnce } from './deprecation.js';
// Deprecated: the names @ctxhost/prompt-caching exported before (each warns once).
export {
  SERVER_CONTEXT,
  SERVER_CONTEXT_DEFAULTS,
  ServerContextConfigSchema,
  serverContextConfigSection,
  isServerContextOn,
  fromServerContextConfig,
  type ServerContextConfig,
} from './legacy-server-context-config.js';
export {
  buildServerContextRequest,
  serverTriggerTokens,
  readServerContextReport,
  withServerContext,
  createServerContextPlugin,
  type ServerContextRequest,
  type ServerContextReport,
  type ServerContextTotals,
  type ServerContextPlugin,
  type ServerContextPluginOptions,
} from './legacy-server-context.js';
