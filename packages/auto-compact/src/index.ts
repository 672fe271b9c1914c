export { createAutoCompactPlugin, type AutoCompactOptions } from './auto-compact-plugin.js';
/** Moved to @ctxhost/core (one parser for every provider package); re-exported here for existing imports. */
export { parseTokenLimitError, type ParsedTokenLimitError, type TokenLimitErrorKind } from '@ctxhost/core';
export {
  AutoCompactConfigSchema,
  AUTO_COMPACT_DEFAULTS,
  autoCompactConfigSection,
  backoffDelay,
  type AutoCompactConfig,
} from './config.js';
export {
  AUTO_COMPACT,
  TRUNCATION_MESSAGE,
  EMPTY_PLACEHOLDER,
  truncationMarker,
  isTruncationMarker,
} from './recovery-steps.js';
