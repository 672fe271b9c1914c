export { startSimulator, type Simulator } from './handler/server.js';
export { LONG_RUNNING_RECORDING } from './handler/long-running-recording.js';
export {
  SIMULATOR_DEFAULTS,
  SimulatorOptionsSchema,
  type SimulatorOptions,
  type WarmCache,
} from './handler/simulator-options.js';
export {
  ANTHROPIC_OVERFLOW_STYLES,
  CHAT_OVERFLOW_STYLES,
  type ModelLimits,
  type OverflowStyle,
  type AnthropicOverflowStyle,
  type ChatOverflowStyle,
} from './wire/model-limits.js';
export type {
  ChatCompletionRequest,
  ChatMessage,
  ChatContentPart,
  ChatToolCall,
  ChatTool,
  ChatUsage,
} from './wire/chat-wire.js';
export { toMessagesRequest, validateChatRequest } from './handler/chat-request.js';
export type {
  GenerateContentRequest,
  GeminiContent,
  GeminiPart,
  GeminiFunctionCall,
  GeminiFunctionResponse,
  GeminiTool,
  GeminiUsageMetadata,
} from './wire/gemini-wire.js';
export { geminiToMessagesRequest, validateGenerateContentRequest } from './handler/gemini-request.js';
export { GEMINI_ROUTE, geminiOverflow } from './handler/handle-generate-content.js';
export type {
  ResponsesRequest,
  ResponsesInputItem,
  ResponsesContentPart,
  ResponsesTool,
  ResponsesUsage,
  ResponsesOutputItem,
} from './wire/responses-wire.js';
export { responsesToMessagesRequest, validateResponsesRequest } from './handler/responses-request.js';
export { RESPONSES_OVERFLOW_MESSAGE } from './handler/handle-responses.js';
export { RESPONSES_COMPACT } from './handler/handle-responses-compact.js';
export { sealSummary, openSummary } from './features/opaque-summary.js';
export {
  createOnDemandCompactionFeature,
  ON_DEMAND_COMPACTION_BETA,
  validateCompactionField,
} from './features/on-demand-compaction.js';
export {
  compactionItem,
  validateResponsesContextManagement,
  type ResponsesCompactionItem,
} from './features/responses-compaction.js';
export { CHAT_CACHE_MINIMUM_TOKENS } from './handler/handle-chat-completions.js';
export type { RecordedRequest } from './handler/recorded-request.js';
export type { SimulatorStats } from './handler/simulator-stats.js';
export { SimulatorError, SIMULATOR_ERROR_CODES, type SimulatorErrorCode } from './errors.js';
export { countTokens, countTextTokens, TOKENIZER } from './wire/tokenizer.js';
export { validateRequest, MAX_CACHE_BREAKPOINTS, type ValidateOptions } from './handler/validate-request.js';
export { createFaultPlan, mulberry32 } from './handler/faults.js';
export { FAULT_KINDS, type Fault, type FaultKind, type RandomFaults } from './handler/fault-kinds.js';
export { buildSummary, isSummaryRequest, summaryTurn, SUMMARY_HEADINGS } from './responders/summary.js';
export { defaultTurn } from './responders/default.js';
export { toTurn, type ScriptedTurn } from './responders/scripted.js';
export { parseBetas, type SimulatorFeature, type FeatureContext } from './features/features.js';
export { builtInFeatures } from './handler/handle-messages.js';
export { validateContextManagement, type Amount } from './features/context-management.js';
export {
  createContextEditingFeature,
  CONTEXT_MANAGEMENT_BETA,
  CLEAR_TOOL_USES,
  CLEAR_THINKING,
  CLEARED_TOOL_RESULT_TEXT,
  CONTEXT_EDITING_DEFAULTS,
  type AppliedEdit,
} from './features/context-editing.js';
export {
  createServerCompactionFeature,
  fromLastCompaction,
  COMPACTION_BETA,
  COMPACT_EDIT,
  COMPACTION_BLOCK,
  COMPACTION_DEFAULTS,
} from './features/server-compaction.js';
export { CACHE_LOOKBACK_BLOCKS } from './features/prompt-cache.js';
export type {
  MessagesRequest,
  ContentBlock,
  WireMessage,
  WireUsage,
  AssistantTurn,
  UsageOverride,
  ContextEdit,
} from './wire/wire.js';
