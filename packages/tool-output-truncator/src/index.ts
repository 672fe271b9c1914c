export {
  createToolOutputTruncator,
  capToolResult,
  TOOL_OUTPUT_TRUNCATOR,
  type ToolOutputTruncatorOptions,
} from './tool-output-truncator.js';
export { truncateMiddle, type TruncateMiddleOptions, type TruncatedText } from './truncate-middle.js';
export { TruncatorConfigSchema, TRUNCATOR_DEFAULTS, truncatorConfigSection, type TruncatorConfig } from './config.js';
