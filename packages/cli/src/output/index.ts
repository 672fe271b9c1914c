export {
  colorEnabled,
  processIo,
  processStream,
  textStream,
  type CliIo,
  type CliStream,
  type Colors,
} from './cli-io.js';
export { formatJson } from './format-json.js';
export { startProgress, type Progress, type ProgressOptions } from './progress.js';
export { formatCliError, formatJsonError, type CliJsonError, type FormattedCliError } from './format-cli-error.js';
export { sayWarningsOnce } from './say-warnings-once.js';
