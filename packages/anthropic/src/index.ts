export {
  createAnthropicModel,
  toParams,
  toResponse,
  toUsage,
  overflowFromResponse,
  type AnthropicModelOptions,
} from './anthropic-model.js';
export { toProviderError } from './to-provider-error.js';
export {
  createAgent,
  AGENT,
  type Agent,
  type AgentOptions,
  type AgentTool,
  type AgentToolOutput,
  type TurnOutcome,
} from './agent.js';
export {
  withContextManagement,
  WRAPPER_DEFAULTS,
  type ContextManagementOptions,
  type WrapperCompactionEvent,
} from './with-context-management.js';
export {
  createAnthropicSummarizer,
  summarizerFromConfig,
  renderTranscript,
  type AnthropicSummarizerOptions,
} from './summarizer.js';
export { createClientFromEnv } from './client-from-env.js';
export { countNearWindow, COUNT_NEAR_WINDOW_RATIO } from './count-near-window.js';
export { createAnthropicCompactor, type AnthropicCompactorOptions } from './anthropic-compactor.js';
