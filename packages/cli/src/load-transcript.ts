import {
  TRANSCRIPT_ERROR_CODES,
  TRANSCRIPT_FORMAT_NAMES,
  TRANSCRIPT_FORMATS,
  TranscriptError,
  readTranscript,
  type Transcript,
} from '@ctxhost/transcripts';

/** Every format the importers read, for help texts: "Claude Code, OpenHands, …, Gemini CLI". */
export const KNOWN_TRANSCRIPT_FORMATS = TRANSCRIPT_FORMATS.map((format) => TRANSCRIPT_FORMAT_NAMES[format]).join(', ');

export interface LoadTranscriptOptions {
  /** Fail on the first broken line instead of skipping and counting it. */
  strict: boolean;
  /** Claude Code: include subagent (sidechain) turns. */
  sidechains: boolean;
  /** OpenHands multi-run JSONL: which run, from 0. */
  run?: number;
}

/**
 * Imports a transcript for a command: broken lines are skipped and counted
 * unless `strict`, and the importer's hint speaks of the command's flags.
 */
export async function loadTranscript(path: string, options: LoadTranscriptOptions): Promise<Transcript> {
  try {
    return await readTranscript(path, {
      skipInvalid: !options.strict,
      includeSidechains: options.sidechains,
      ...(options.run === undefined ? {} : { run: options.run }),
    });
  } catch (error) {
    if (!TranscriptError.isInstance(error) || error.code !== TRANSCRIPT_ERROR_CODES.invalid) throw error;
    const message = error.message.replace(/pass \{ skipInvalid: true \} to skip it/, 'run without --strict to skip it');
    throw new TranscriptError(TRANSCRIPT_ERROR_CODES.invalid, message, {
      cause: error,
      ...(error.file === undefined ? {} : { file: error.file }),
      ...(error.line === undefined ? {} : { line: error.line }),
    });
  }
}
