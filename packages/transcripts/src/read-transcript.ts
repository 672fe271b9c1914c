import { readFile } from 'node:fs/promises';
import { TRANSCRIPT_ERROR_CODES, TranscriptError } from './errors.js';
import { parseTranscript } from './parse-transcript.js';
import type { Transcript, TranscriptOptions } from './transcript.js';

/** Reads and imports a transcript file; errors name `path` (or `options.file`). */
export async function readTranscript(path: string, options: TranscriptOptions = {}): Promise<Transcript> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new TranscriptError(
      TRANSCRIPT_ERROR_CODES.unreadable,
      `transcript ${path}: cannot read the file (${reason}); check the path and its permissions`,
      { file: path, cause: error },
    );
  }
  return parseTranscript(text, { ...options, file: options.file ?? path });
}
