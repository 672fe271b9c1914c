export { createAutoCompactPlugin, type AutoCompactOptions } from './auto-compact-plugin.js';
export { parseTokenLimitError, type ParsedTokenLimitError, type TokenLimitErrorKind } from './parse-token-limit-error.js';
export { AutoCompactConfigSchema, AUTO_COMPACT_DEFAULTS, autoCompactConfigSection, backoffDelay, type AutoCompactConfig } from './config.js';
export { AUTO_COMPACT, TRUNCATION_MESSAGE, EMPTY_PLACEHOLDER } from './recovery-steps.js';
