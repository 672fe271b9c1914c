import { CORE_ERROR_CODES, CtxhostError, formatConfigIssue, type ConfigIssue } from '@ctxhost/core';
import { CliError } from '../errors.js';

export interface FormattedCliError {
  /** What to print on stderr, each line starting with `ctxhost: `. */
  text: string;
  /** 2 for usage errors, else 1. */
  exitCode: number;
  /** The same error for `--json`: `{ code, message, exitCode, issues? }`. */
  json: CliJsonError;
}

/** The error object `--json` prints on stdout when a command fails. */
export interface CliJsonError {
  /** The stable code (`CTXHOST_TRANSCRIPT_UNREADABLE`, `CTXHOST_CLI_USAGE`…), or `CTXHOST_CLI_FAILED` for an error without one. */
  code: string;
  message: string;
  exitCode: number;
  /** A config error's problems, each with file, line and column. */
  issues?: readonly ConfigIssue[];
}

/** `{ "error": { code, message, exitCode, issues? } }` and a newline. */
export function formatJsonError(error: CliJsonError): string {
  return `${JSON.stringify({ error }, null, 2)}\n`;
}

/**
 * One line per problem, `ctxhost: <what and where>`, no stack trace unless `debug`.
 * A config error prints one line for each of its issues (all are reported at once).
 */
export function formatCliError(error: unknown, options: { debug?: boolean } = {}): FormattedCliError {
  const exitCode = CliError.isInstance(error) ? error.exitCode : 1;
  const lines = isConfigError(error)
    ? error.issues.map((issue) => `${formatConfigIssue(issue)} [${error.code}]`)
    : [describe(error)];
  const text = lines.map((line) => `ctxhost: ${line}\n`).join('');
  const stack =
    options.debug === true && error instanceof Error && error.stack !== undefined ? `${causeChain(error)}\n` : '';
  const code = CtxhostError.isInstance(error) ? error.code : 'CTXHOST_CLI_FAILED';
  const message = error instanceof Error ? error.message : String(error);
  return {
    text: text + stack,
    exitCode,
    json: { code, message, exitCode, ...(isConfigError(error) ? { issues: error.issues } : {}) },
  };
}

/** By code, not `instanceof`: a plugin may bundle its own copy of core. */
function isConfigError(error: unknown): error is CtxhostError & { issues: readonly ConfigIssue[] } {
  const configCodes: readonly string[] = [CORE_ERROR_CODES.configInvalid, CORE_ERROR_CODES.configUnreadable];
  if (!CtxhostError.isInstance(error) || !configCodes.includes(error.code)) return false;
  const issues: unknown = (error as { issues?: unknown }).issues;
  return Array.isArray(issues) && issues.length > 0;
}

function describe(error: unknown): string {
  if (CtxhostError.isInstance(error)) return `${oneLine(error.message)} [${error.code}]`;
  if (error instanceof Error) return oneLine(error.message);
  return String(error);
}

/** Multi-line messages (an importer listing each format it tried) are kept, indented under the first line. */
function oneLine(message: string): string {
  return message.trimEnd().split('\n').join('\n  ');
}

function causeChain(error: Error): string {
  const parts = [error.stack ?? String(error)];
  let cause: unknown = error.cause;
  while (cause instanceof Error) {
    parts.push(`caused by: ${cause.stack ?? cause.message}`);
    cause = cause.cause;
  }
  return parts.join('\n');
}
