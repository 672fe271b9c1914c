export * from './model/message.js';
export * from './model/usage.js';
export * from './tokens/token-counter.js';
export * from './model/message-group.js';
export * from './model/provider-error.js';
export * from './model/model-client.js';
export { toolInputSchema } from './model/tool-input-schema.js';
export * from './model/summarizer.js';
export * from './model/compaction-report.js';
export * from './model/native-compaction-part.js';
export * from './model/readable-in-place.js';
export * from './engines/context-engine.js';
export * from './stores/session-store.js';
export * from './host/session.js';
export * from './config/config-schema.js';
export * from './host/host-hooks.js';
export * from './host/plugin.js';
export * from './host/host.js';
export * from './errors.js';
export { groupMessages, isReasoningOnly, type GroupMessagesOptions } from './tokens/group-messages.js';
export {
  estimateTokens,
  estimateTextTokens,
  ESTIMATOR_WEIGHTS,
  textFeaturesCache,
  type TokenFeatures,
  type TokenWeights,
  type TextFeatures,
} from './tokens/estimate-tokens.js';
export {
  createTextFeaturesCache,
  CACHED_TEXT_MIN_LENGTH,
  TEXT_FEATURES_CACHE_CHARS,
  type TextFeaturesCache,
} from './tokens/text-features-cache.js';
export {
  createTokenCounter,
  type CachingTokenCounter,
  type TokenCounterOptions,
  type TokenCounterStats,
} from './tokens/create-token-counter.js';
export { messageChars } from './model/message-chars.js';
export { messageContentHash } from './model/message-content-hash.js';
export { toJsonValue } from './model/to-json-value.js';
export {
  coveredCount,
  coveredIdAt,
  coveredIds,
  coveredSpanOf,
  toCoveredSpan,
  type Covers,
} from './model/covered-span.js';
export { DEFAULT_CONFIG, CONFIG_LIMITS } from './config/config-defaults.js';
export {
  ConfigFileSchema,
  CompressionSectionSchema,
  RedactionSectionSchema,
  createConfigSchema,
  toCtxhostConfig,
  type ConfigFile,
  type ConfigFileInput,
} from './config/config-file-schema.js';
export { defineConfigSection, readHookSection, type ConfigSection } from './config/config-section.js';
export {
  loadConfig,
  mergeConfig,
  type ConfigLevel,
  type LoadConfigOptions,
  type LoadedConfig,
} from './config/load-config.js';
export {
  CODE_LOADING_SETTINGS,
  isTrustedProject,
  type CodeLoadingSetting,
  type RefusedSetting,
} from './config/project-trust.js';
export { createConfigJsonSchema, CONFIG_JSON_SCHEMA_FILE } from './config/config-json-schema.js';
export {
  HOOK_ALIASES,
  canonicalHookName,
  closestHookName,
  formatConfigWarning,
  resolveDisabledHooks,
  type ConfigWarning,
  type DisabledHooksList,
} from './config/disabled-hooks.js';
export {
  createFileStore,
  defaultSessionDirectory,
  type FileStore,
  type FileStoreOptions,
} from './stores/file-store.js';
export { createPartOriginals, type PartOriginals } from './stores/part-originals.js';
export { SESSION_LOG_FORMAT_VERSION } from './stores/session-log-file.js';
export { createUsageTracker, type UsageTracker } from './tokens/usage-tracker.js';
export {
  measureContextUsage,
  contextWindowOf,
  resolveContextWindow,
  formatPercent,
  formatTokens,
  type ContextUsage,
} from './host/context-usage.js';
export {
  boundAfterFit,
  boundAfterRejection,
  capSessionWindow,
  configuredWindowOf,
  learnedWindowBound,
  relaxLearnedWindow,
  rememberConfiguredWindow,
  setLearnedSessionWindow,
  setLearnedWindowBound,
  withLearnedWindow,
  type WindowBound,
} from './host/learned-window.js';
export {
  createHost,
  createHostAsync,
  withDefaults,
  type CreateHostOptions,
  type PartialConfig,
} from './host/create-host.js';
export { createHostTasks, isAbortError, type TrackedHostTasks } from './host/host-tasks.js';
export { createMemoryStore, type MemoryStoreOptions } from './stores/memory-store.js';
export { assertCacheEntry, entryHead } from './stores/cache-entry.js';
export { assertStoreId, STORE_ID_MAX_BYTES } from './stores/store-id.js';
export { assertExpectedSeq, StoreConflictError } from './stores/store-conflict.js';
export { createHostSession, type HostSession, type HostSessionContext } from './host/host-session.js';
export { createSessionMutex, type SessionMutex } from './host/session-mutex.js';
export { runOutsideLocks } from './host/lock-context.js';
export { isAppendOnlyView } from './host/append-only-view.js';
export { markJournaledList, replaceEntry, replacedSince, revisionOf } from './host/journaled-list.js';
export {
  registerContextEngine,
  unregisterContextEngine,
  registeredContextEngine,
  registeredContextEngineNames,
  createNoneEngine,
} from './engines/engine-registry.js';
export {
  resolveContextEngine,
  pluginDirectories,
  type ResolveContextEngineOptions,
  type ResolvedContextEngine,
  type EngineSource,
} from './engines/resolve-context-engine.js';
export { createEnginePlugin, ENGINE_PLUGIN } from './host/engine-plugin.js';
export {
  fromAnthropic,
  toAnthropic,
  type FromAnthropicOptions,
  type ToAnthropicResult,
} from './adapters/anthropic-adapter.js';
export type * from './adapters/anthropic-wire-types.js';
export { validateMessages, validateMessage, MessageValidationError } from './model/validate-messages.js';
export { findTooDeep, tooDeepMessage, MAX_JSON_DEPTH } from './model/json-depth.js';
export { createMessage, partId, newMessageId, type PartInput } from './model/part-ids.js';
export {
  createPromptMirror,
  alignmentKey,
  type PromptMirror,
  type PromptSyncResult,
  type MappedPromptItem,
} from './host/prompt-mirror.js';
export { createPromptOriginals, type PromptOriginals, type OriginalsSeed } from './host/prompt-originals.js';
export {
  createPromptRenderer,
  type CallerList,
  type PromptRenderer,
  type PromptRendererOptions,
  type RenderedPrompt,
} from './host/prompt-renderer.js';
export { fromOpenAI, toOpenAI } from './adapters/openai-adapter.js';
export { fromResponsesOutput, toResponsesInput, type ResponsesItem } from './adapters/responses-adapter.js';
export type * from './adapters/openai-wire-types.js';
export type * from './adapters/wire-request-types.js';
export type { WireTurns } from './adapters/wire-turns.js';
export { readChatRequest, parseArguments } from './adapters/chat-turns.js';
export { readResponsesRequest, RESPONSES_CALL_TYPES } from './adapters/responses-turns.js';
export { readGenerateContentRequest } from './adapters/gemini-turns.js';
export type { ModelInfo, ModelPrices, ModelOverride, LongContextTier } from './model-registry/model-info.js';
export {
  largestStatedLimit,
  type ModelLimitClaim,
  type ModelLimitName,
  type ModelLimitSources,
} from './model-registry/model-limit-sources.js';
export {
  getModelInfo,
  createModelRegistry,
  defaultModelRegistry,
  type ModelRegistry,
  type CreateModelRegistryOptions,
} from './model-registry/model-registry.js';
export { canonicalModelId, modelIdCandidates, PROVIDER_ALIASES } from './model-registry/model-id.js';
export { ModelsSectionSchema, toModelOverrides, type ModelsSection } from './model-registry/models-config-schema.js';
export { normalizeProviderError, isRecoverableOverflow } from './model/normalize-provider-error.js';
export {
  parseTokenLimitError,
  type ParsedTokenLimitError,
  type TokenLimitErrorKind,
} from './model/parse-token-limit-error.js';
export { TOKEN_LIMIT_SAMPLES, type TokenLimitSample } from './model/token-limit-samples.js';
export {
  detectSilentOverflow,
  SILENT_OVERFLOW_FILL,
  type SilentOverflow,
  type SilentOverflowInput,
} from './model/silent-overflow.js';
export {
  createSecretRedactor,
  secretRedactorFromConfig,
  secretPatternFromConfig,
  redactionPlaceholder,
  DEFAULT_SECRET_PATTERNS,
  REDACTION_PLACEHOLDER_PREFIX,
  type SecretPattern,
  type SecretRedactor,
  type RedactionResult,
  type RedactionConfig,
} from './engines/secret-redactor.js';
export { renderTranscript } from './model/render-transcript.js';
export {
  COMPACTION_LOW_WATER,
  CONSECUTIVE_REGROWTH,
  lowWaterMark,
  outputBudgetLine,
  markRequestCompacted,
  requestCompactedBy,
} from './host/compaction-decision.js';
export {
  ORIGINAL_TOOL,
  ORIGINAL_TOOL_NAME,
  originalHandleNote,
  showsShortened,
  readOriginal,
  type OriginalToolInput,
} from './host/original-tool.js';
export { completeCompaction, type CompleteOptions } from './host/complete-compaction.js';
export {
  prepareCompaction,
  runCompaction,
  type CompactOptions,
  type CompactOutcome,
  type PrepareOutcome,
} from './host/run-compaction.js';
export {
  BACKGROUND_COMPACTION_SHARE,
  BACKGROUND_HORIZON_REQUESTS,
  thresholdNear,
} from './host/background-compaction.js';
export { redactMessages } from './engines/redact-messages.js';
export { validateProjection, type ProjectionProblem, type ProjectionProblemCode } from './model/validate-projection.js';
export * from './stateless/index.js';
export * from './fidelity/index.js';
export { isSecretName } from './engines/secret-assignments.js';
export { SECRETLINT_RULE_NAMES, type SecretRange } from './engines/secretlint-rules.js';
export { linearPatternProblem } from './config/linear-pattern.js';
