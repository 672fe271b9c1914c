/** ctxhost: the batteries-included entry. Re-exports the public API of every built-in package. */
export {
  createDefaultHost,
  loadDefaultHost,
  builtInPlugins,
  builtInConfigSections,
  type DefaultHostOptions,
} from '@ctxhost/default-host';
export * from '@ctxhost/core';
export {
  createCompressor,
  compressorEngineFactory,
  COMPRESSOR,
  extractiveSummary,
  type CompressorOptions,
} from '@ctxhost/compressor';
export {
  triggers,
  truncation,
  slidingWindow,
  toolResultCompaction,
  selectiveToolCall,
  summarization,
  pipeline,
  tokenBudget,
  applyCompaction,
  dryRun,
  validateProjection,
  createCompactionPlugin,
} from '@ctxhost/compaction';
export { createContextWindowMonitor, CONTEXT_WINDOW_MONITOR } from '@ctxhost/context-window-monitor';
export { createPreemptiveCompaction, NOTICE_PREFIX, PREEMPTIVE_COMPACTION } from '@ctxhost/preemptive-compaction';
export { createToolOutputTruncator, TOOL_OUTPUT_TRUNCATOR } from '@ctxhost/tool-output-truncator';
export { createSessionHygiene, SESSION_HYGIENE } from '@ctxhost/session-hygiene';
export {
  applyCacheControl,
  applyCacheBreakpoints,
  createPromptCachingPlugin,
  sessionCost,
  usageCost,
  DEFAULT_PRICING,
} from '@ctxhost/prompt-caching';
export { readTranscript, parseTranscript } from '@ctxhost/transcripts';
export { createAutoCompactPlugin, parseTokenLimitError, AUTO_COMPACT } from '@ctxhost/auto-compact';
export {
  createAgent,
  createAnthropicModel,
  createAnthropicSummarizer,
  withContextManagement,
  toProviderError,
  createClientFromEnv,
  toUsage,
  type Agent,
  type AgentTool,
  type AgentToolOutput,
  type TurnOutcome,
} from '@ctxhost/anthropic';
export { summarizerFromConfig, type MainModel } from './summarizer-from-config.js';
export {
  createOpenAIModel,
  createOpenAISummarizer,
  createOpenAITokenCounter,
  openAITokenCounterFor,
  withContextManagement as withOpenAIContextManagement,
  toProviderError as toOpenAIProviderError,
  type OpenAIModelOptions,
  type OpenAIContextManagementOptions,
} from '@ctxhost/openai';
