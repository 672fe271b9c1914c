import { CORE_ERROR_CODES, CtxhostError, formatConfigIssue, type ConfigIssue } from '@ctxhost/core';
import { CliError } from '../errors.js';

export interface FormattedCliError {
  /** What to print on stderr, each line starting with `ctxhost: `. */
  text: string;
  /** 2 for usage errors, else 1. */
  exitCode: number;
}

/**
 * One line per problem, `ctxhost: <what and where>`, no stack trace unless `debug`.
 * A config error prints one line for each of its issues (all are reported at once).
 */
export function formatCliError(error: unknown, options: { debug?: boolean } = {}): FormattedCliError {
  const exitCode = CliError.isInstance(error) ? error.exitCode : 1;
  const lines = isConfigError(error) ? error.issues.map((issue) => `${formatConfigIssue(issue)} [${error.code}]`) : [describe(error)];
  const text = lines.map((line) => `ctxhost: ${line}\n`).join('');
  const stack = options.debug === true && error instanceof Error && error.stack !== undefined ? `${causeChain(error)}\n` : '';
  return { text: text + stack, exitCode };
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
