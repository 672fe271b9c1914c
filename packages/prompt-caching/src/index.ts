export {
  applyCacheControl,
  countMarkers,
  ROLLING_BREAKPOINTS,
  type ApplyCacheControlOptions,
} from './apply-cache-control.js';
export {
  applyCacheBreakpoints,
  countCacheBreakpoints,
  type ApplyCacheBreakpointsOptions,
} from './apply-cache-breakpoints.js';
export { createCacheMarker, isCacheTtl, CACHE_TTLS, MAX_CACHE_BREAKPOINTS, type CacheTtl } from './cache-marker.js';
export type {
  CacheableRequest,
  WireCacheControl,
  WireContentBlock,
  WireMessage,
  WireTool,
} from './cacheable-request.js';
export {
  shouldEnableCaching,
  cachingStatusLine,
  isClaudeModel,
  DEFAULT_CACHING_GATEWAYS,
  type CachingDecision,
  type CachingTarget,
} from './should-enable-caching.js';
export {
  DEFAULT_PRICING,
  STANDARD_CACHE_MULTIPLIERS,
  type ModelPricing,
  type PricingTable,
} from './default-pricing.js';
export { findModelPricing, requireModelPricing, normalizeModelName } from './find-model-pricing.js';
export { usageCost, sessionCost, type CostByKind, type CostOptions, type CostReport } from './usage-cost.js';
export {
  PROMPT_CACHING,
  PROMPT_CACHING_DEFAULTS,
  PromptCachingConfigSchema,
  PricingEntrySchema,
  promptCachingConfigSection,
  pricingFromConfig,
  type PromptCachingConfig,
  type PricingEntryConfig,
} from './config-schema.js';
export { createCachingTransform, type CachingTransform, type CachingTransformOptions } from './caching-transform.js';
export { createPromptCachingPlugin, type PromptCachingPluginOptions } from './prompt-caching-plugin.js';
export {
  PROMPT_CACHING_ERROR_CODES,
  PromptCachingError,
  CacheTtlError,
  UnknownModelPricingError,
  UsageInvalidError,
  type PromptCachingErrorCode,
} from './errors.js';
export { createCostTracker, COST_TRACKER, type CostTracker } from './cost-tracker.js';
/**
 * Deprecated: server-side context management moved to @ctxhost/native-compaction.
 * These names still work; the functions warn once.
 */
export {
  SERVER_CONTEXT,
  SERVER_CONTEXT_DEFAULTS,
  MIN_COMPACTION_TRIGGER,
  ServerContextConfigSchema,
  serverContextConfigSection,
  isServerContextOn,
  type ServerContextConfig,
  buildServerContextRequest,
  serverTriggerTokens,
  CONTEXT_MANAGEMENT_BETA,
  COMPACTION_BETA,
  type ServerContextRequest,
  readServerContextReport,
  isCompactionPart,
  compactionUsages,
  type AppliedEdit,
  type ServerContextReport,
  createServerContextPlugin,
  withServerContext,
  type ServerContextPlugin,
  type ServerContextPluginOptions,
  type ServerContextTotals,
} from '@ctxhost/native-compaction';
export { withServerFirst, serverFirstThreshold, SERVER_FIRST, type ServerFirstOptions } from './server-first-alias.js';
export { SERVER_CONTEXT_STAGE } from './server-first-alias.js';
