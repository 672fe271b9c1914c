export {
  createStatelessContext,
  type StatelessContext,
  type StatelessContextOptions,
  type StatelessRequest,
  type StatelessTurn,
  type RunOptions,
} from './stateless-context.js';
export { ContextWindowStop } from './context-window-stop.js';
export { headedPrompt, type HeadedPrompt } from './headed-prompt.js';
export {
  createPromptChainer,
  chainHash,
  contentHash,
  chainedMessageId,
  listOf,
  type ChainList,
  type PromptChain,
  type PromptChainer,
  type ChainedMessage,
  type ChainResult,
} from './prompt-chain.js';
export {
  createCompactionCache,
  CACHE_INDEX_DEPTH,
  type CompactionCache,
  type CachedProjection,
  type WrittenProjection,
  type CompactionCacheOptions,
} from './compaction-cache.js';
export { STORE_RETRY, type StoreRetry } from './store-breaker.js';
export { createReportOnce, type ReportOnce } from './report-once.js';
export { settingsHash } from './settings-hash.js';
export { foldDeprecatedWrapperOptions } from './deprecated-wrapper-options.js';
export {
  createStatelessIntegration,
  checkIntegrationOptions,
  warnDeprecated,
  DEFAULT_MAX_OUTPUT_TOKENS,
  type IntegrationOptions,
  type StatelessIntegration,
  type CreateStatelessIntegrationOptions,
} from './stateless-integration.js';
export { nativeFieldsOf, withoutNativeFields, aiSdkContextManagement, type NativeFields } from './native-fields.js';
