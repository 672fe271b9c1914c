import { CtxhostError, type CtxhostErrorOptions } from '@ctxhost/core';

/** Stable codes of the command line's own errors. */
export const CLI_ERROR_CODES = {
  /** A flag or argument the command cannot use (exit code 2). */
  usage: 'CTXHOST_CLI_USAGE',
  /** A file named on the command line does not exist or cannot be read. */
  fileUnreadable: 'CTXHOST_CLI_FILE_UNREADABLE',
  /** A file the command was asked to write cannot be written. */
  fileUnwritable: 'CTXHOST_CLI_FILE_UNWRITABLE',
  /** `compact`: a `compaction.before` tap vetoed the compaction, or the engine threw. */
  compactionFailed: 'CTXHOST_CLI_COMPACTION_FAILED',
} as const;

export type CliErrorCode = (typeof CLI_ERROR_CODES)[keyof typeof CLI_ERROR_CODES];

const CLI_ERROR = Symbol.for('ctxhost.cli-error');

/** A command failed for a reason the person can fix; `exitCode` is 2 for usage errors, else 1. */
export class CliError extends CtxhostError {
  readonly exitCode: number;
  readonly [CLI_ERROR] = true;

  constructor(code: CliErrorCode, message: string, options: CtxhostErrorOptions = {}) {
    super(code, message, options);
    this.exitCode = code === CLI_ERROR_CODES.usage ? 2 : 1;
  }

  static override isInstance(value: unknown): value is CliError {
    return CtxhostError.isInstance(value) && (value as { [CLI_ERROR]?: unknown })[CLI_ERROR] === true;
  }
}

const CLI_EXIT = Symbol.for('ctxhost.cli-exit');

/** Thrown by a command that has printed its result (`--json` of an invalid config) and must still exit with `exitCode`. */
export class CliExit extends Error {
  readonly exitCode: number;
  readonly [CLI_EXIT] = true;

  constructor(exitCode: number) {
    super(`exit ${exitCode}`);
    this.exitCode = exitCode;
  }

  static isInstance(value: unknown): value is CliExit {
    return typeof value === 'object' && value !== null && (value as { [CLI_EXIT]?: unknown })[CLI_EXIT] === true;
  }
}
