/** The pieces of the plugin, for people who assemble their own (`@ctxhost/opencode/bridge`). */
export { createCtxhostOpencodePlugin, type CtxhostOpencodeOptions } from './ctxhost-opencode-plugin.js';
export { createEventBridge, type EventBridge, type EventBridgeOptions } from './event-bridge.js';
export { createMirrorRegistry, type MirrorRegistry, type MirrorState } from './mirror-registry.js';
export {
  createOpencodeActions,
  type OpencodeActions,
  type OpencodeClient,
  type OpencodeModelRef,
  type OpencodePrompt,
} from './opencode-actions.js';
export { createOpencodeBridgePlugin, OPENCODE_BRIDGE } from './opencode-bridge-plugin.js';
export { createOpencodeSyncStore, opencodeMessageId } from './opencode-sync-store.js';
export { createOpencodeSummaryEngine, OPENCODE_SUMMARY_ENGINE } from './opencode-summary-engine.js';
export { createOriginalOutputTool, ORIGINAL_OUTPUT_TOOL } from './original-output-tool.js';
export { createToolOutputHandler, type ToolExecuted } from './tool-output-handler.js';
export { loadOpencodeConfig, OPENCODE_CONFIG_FILE, type LoadOpencodeConfigOptions } from './load-opencode-config.js';
export { providerErrorFromOpencode, type OpencodeError } from './provider-error-from-opencode.js';
export {
  toCtxhostMessages,
  toolMessageId,
  usageOf,
  TOOL_RESULTS_SUFFIX,
  type MirroredMessage,
  type ShortenedOutput,
} from './to-ctxhost-messages.js';
export { OPENCODE_ERROR_CODES, OpencodeBridgeError, type OpencodeErrorCode } from './errors.js';
export { createOpencodePreemptiveCompaction } from './opencode-preemptive-compaction.js';
export { createOpencodeResummary, OPENCODE_RESUMMARY } from './opencode-resummary.js';
export { compactThroughOpencode } from './compact-through-opencode.js';
export { foldedPrompts, resendFoldedPrompts, type OpencodeMessage } from './folded-prompts.js';
export {
  compactionBrief,
  REQUEST_QUOTE_CHARS,
  type CompactionBriefInput,
  type OpencodeTodo,
} from './compaction-brief.js';
export { createCompactionBriefHandler } from './compaction-brief-handler.js';
export { compactionModelFor } from './compaction-model.js';
export { isEmptyReply, silentOverflowError, SILENT_OVERFLOW_FILL } from './empty-reply.js';
export {
  opencodeConfigSection,
  OpencodeConfigSchema,
  OPENCODE_DEFAULTS,
  OPENCODE_SECTION,
  type OpencodeConfig,
} from './opencode-config.js';
export {
  createOpencodeCompactionReviewer,
  OPENCODE_COMPACTION_ENGINE,
  type OpencodeCompactionReviewer,
  type ReviewedOpencodeCompaction,
} from './opencode-compaction-review.js';
export {
  compactionSpanOf,
  newestSummary,
  viewOf,
  isCompletedSummary,
  type OpencodeCompactionSpan,
  type OpencodeEntry,
} from './opencode-compaction-span.js';
export { createCompactionAddendumTransform } from './compaction-addendum-transform.js';
export { readProjectFiles } from './project-files.js';
