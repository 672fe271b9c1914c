export { parseTranscript } from './parse-transcript.js';
export { readTranscript } from './read-transcript.js';
export { detectFormat, type FormatDetection } from './detect-format.js';
export { CODEX_COMPACTION_PROMPT } from './codex.js';
export {
  TRANSCRIPT_FORMATS,
  TRANSCRIPT_FORMAT_NAMES,
  type Transcript,
  type TranscriptBoundary,
  type TranscriptFormat,
  type TranscriptOptions,
  type TranscriptUsage,
  type UiOnlyReason,
} from './transcript.js';
export {
  TRANSCRIPT_ERROR_CODES,
  TranscriptError,
  type TranscriptErrorCode,
  type TranscriptErrorOptions,
} from './errors.js';
export { transcriptSegments, lastSegmentMessages, type TranscriptSegment } from './segments.js';
