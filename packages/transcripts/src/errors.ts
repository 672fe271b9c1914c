import { CtxhostError, type CtxhostErrorOptions } from '@ctxhost/core';

/** Stable codes of the transcript importers' errors. */
export const TRANSCRIPT_ERROR_CODES = {
  /** A line or event is not what its format requires (bad JSON, missing field, wrong type). */
  invalid: 'CTXHOST_TRANSCRIPT_INVALID',
  /** The content matches none of the known formats. */
  unknownFormat: 'CTXHOST_TRANSCRIPT_UNKNOWN_FORMAT',
  /** The file could not be read. */
  unreadable: 'CTXHOST_TRANSCRIPT_UNREADABLE',
  /** `{ run: n }` asked for a run the file does not have. */
  runNotFound: 'CTXHOST_TRANSCRIPT_RUN_NOT_FOUND',
} as const;

export type TranscriptErrorCode = (typeof TRANSCRIPT_ERROR_CODES)[keyof typeof TRANSCRIPT_ERROR_CODES];

const TRANSCRIPT_ERROR = Symbol.for('ctxhost.transcript-error');

export interface TranscriptErrorOptions extends CtxhostErrorOptions {
  /** The file (or `<text>` for parsed strings). */
  file?: string;
  /** 1-based line of the offending JSON line (JSONL formats) or event. */
  line?: number;
}

/**
 * An import failed. The message names the file, the line and what was wrong,
 * e.g. `transcript session.jsonl:12: assistant line has no message.id; fix the line or pass { skipInvalid: true }`.
 */
export class TranscriptError extends CtxhostError {
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly [TRANSCRIPT_ERROR] = true;

  constructor(code: TranscriptErrorCode, message: string, options: TranscriptErrorOptions = {}) {
    super(code, message, options);
    this.file = options.file;
    this.line = options.line;
  }

  static override isInstance(value: unknown): value is TranscriptError {
    return CtxhostError.isInstance(value) && (value as { [TRANSCRIPT_ERROR]?: unknown })[TRANSCRIPT_ERROR] === true;
  }
}

/** `transcript <file>:<line>: <what>` */
export function formatLocation(file: string, line: number | undefined): string {
  return line === undefined ? `transcript ${file}` : `transcript ${file}:${line}`;
}
