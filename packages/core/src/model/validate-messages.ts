import type { z } from 'zod';
import { CORE_ERROR_CODES, CtxhostError } from '../errors.js';
import { findTooDeep, tooDeepMessage } from './json-depth.js';
import { MessageSchema, type Message } from './message.js';

/** Messages from outside that do not fit the model; `problems` lists each, with its path. */
export class MessageValidationError extends CtxhostError {
  readonly problems: string[];

  constructor(where: string, problems: string[]) {
    super(
      CORE_ERROR_CODES.messageInvalid,
      `${where}: ${problems.length} invalid field${problems.length === 1 ? '' : 's'}\n  ${problems.join('\n  ')}`,
    );
    this.problems = problems;
  }
}

/**
 * Checks that `input` is a list of ctxhost messages. Every problem is reported
 * at once, each with its path (`messages[3].parts[1].callId`), what was
 * expected and what was found.
 */
export function validateMessages(input: unknown, where = 'messages'): Message[] {
  if (!Array.isArray(input))
    throw new MessageValidationError(where, [`${where}: expected a list of messages, got ${describe(input)}`]);
  const problems: string[] = [];
  const messages = input.map((value, index) => {
    const tooDeep = findTooDeep(value);
    if (tooDeep !== undefined) {
      problems.push(tooDeepMessage(`${where}[${index}]`, tooDeep));
      return undefined;
    }
    const result = MessageSchema.safeParse(value);
    if (result.success) return result.data;
    problems.push(...result.error.issues.map((issue) => formatIssue(`${where}[${index}]`, issue, value)));
    return undefined;
  });
  if (problems.length > 0) throw new MessageValidationError(where, problems);
  return messages as Message[];
}

/** One message; the error names it by `where` (default `message`). */
export function validateMessage(input: unknown, where = 'message'): Message {
  const tooDeep = findTooDeep(input);
  if (tooDeep !== undefined) throw new MessageValidationError(where, [tooDeepMessage(where, tooDeep)]);
  const result = MessageSchema.safeParse(input);
  if (result.success) return result.data;
  throw new MessageValidationError(
    where,
    result.error.issues.map((issue) => formatIssue(where, issue, input)),
  );
}

function formatIssue(base: string, issue: z.core.$ZodIssue, root: unknown): string {
  const path = issue.path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : `${text}.${String(key)}`),
    base,
  );
  const found = valueAt(root, issue.path);
  return `${path}: ${expectation(issue)}, got ${describe(found)}`;
}

function expectation(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_union' && 'discriminator' in issue)
    return `expected a known ${String(issue.discriminator)}`;
  if (issue.code === 'invalid_type') return `expected ${issue.expected === 'string' ? 'a string' : issue.expected}`;
  if (issue.code === 'too_small' && issue.origin === 'string') return 'expected a non-empty string';
  if (issue.code === 'unrecognized_keys')
    return `unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}`;
  return issue.message;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return String(value);
}
