import { TRANSCRIPT_ERROR_CODES, TranscriptError, formatLocation } from './errors.js';

/** Where an importer is, and what to do with a malformed line. */
export interface ParseContext {
  readonly file: string;
  readonly skipInvalid: boolean;
  skipped: number;
  /** Throws a located TranscriptError, or counts the line as skipped and returns under `skipInvalid`. */
  invalid(line: number | undefined, what: string, cause?: unknown): void;
}

export function createParseContext(file: string, skipInvalid: boolean): ParseContext {
  return {
    file,
    skipInvalid,
    skipped: 0,
    invalid(line, what, cause) {
      if (this.skipInvalid) {
        this.skipped += 1;
        return;
      }
      const hint = `fix the ${line === undefined ? 'entry' : 'line'} or pass { skipInvalid: true } to skip it`;
      throw new TranscriptError(TRANSCRIPT_ERROR_CODES.invalid, `${formatLocation(file, line)}: ${what}; ${hint}`, {
        file,
        line,
        cause,
      });
    },
  };
}

/** Parses one JSON line; on failure reports it (throw or skip) and returns undefined. */
export function parseJsonLine(context: ParseContext, text: string, line: number): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    context.invalid(line, `not valid JSON (${(error as Error).message})`, error);
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Non-empty lines with their 1-based numbers. */
export function splitLines(text: string): { line: number; text: string }[] {
  return text
    .split('\n')
    .map((content, index) => ({ line: index + 1, text: content.trim() }))
    .filter((entry) => entry.text !== '');
}
