import type { z } from 'zod';
import type { ConfigIssue } from '../errors.js';

/** Where a key or its value sits in a file (1-based), when the file has positions. */
export type ConfigLocator = (
  path: readonly PropertyKey[],
  target: 'key' | 'value',
) => { line: number; column: number } | undefined;

/**
 * The per-parse zod error map: turns every issue into the "expected" half of
 * a config message. Schema-level messages (`a number between 0 and 1`) win
 * over it, so sections only spell out what a generic text would say badly.
 */
export const configErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      return issue.expected === 'object'
        ? 'a mapping of keys'
        : issue.expected === 'array'
          ? 'a list'
          : `a ${issue.expected}`;
    case 'too_small':
      return `${issue.origin === 'array' ? 'a list with' : 'a value'} ${issue.inclusive === false ? 'above' : 'at least'} ${String(issue.minimum)}`;
    case 'too_big':
      return `${issue.origin === 'array' ? 'a list with' : 'a value'} ${issue.inclusive === false ? 'below' : 'at most'} ${String(issue.maximum)}`;
    case 'invalid_value':
      return `one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'invalid_format':
      return `a ${issue.format}`;
    case 'unrecognized_keys':
      return knownKeys(issue.inst);
    default:
      return undefined;
  }
};

function knownKeys(schema: unknown): string {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  if (shape === undefined) return 'a known key';
  const keys = Object.keys(shape);
  return keys.length === 0 ? 'no keys here' : `one of the keys ${keys.join(', ')}`;
}

/** The longest quote of a found string: a config value or key is short; anything longer is cut. */
const QUOTE_LIMIT = 40;

/**
 * Describes a found value for a message. A string is quoted up to its first
 * line break and at most QUOTE_LIMIT characters, so a message never carries a
 * file's content past the offending line (a secret on the next line, a key
 * file linked in as the config); lists and mappings are counted, not shown.
 */
export function describeFound(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'an empty value';
  if (typeof value === 'string') return quoteLine(value);
  if (typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value !== 'object') return String(value);
  // Many issues can point into one large mapping: describe each object once, not once per issue (that was quadratic).
  const cached = described.get(value);
  if (cached !== undefined) return cached;
  const description = Array.isArray(value)
    ? `a list of ${plural(value.length, 'item')}`
    : `a mapping of ${plural(Object.keys(value).length, 'key')}`;
  described.set(value, description);
  return description;
}

/** What a whole file held when it is not a mapping of keys, without any of it. */
export function describeWholeFile(value: unknown): string {
  if (typeof value === 'string')
    return `text of ${plural(value.length, 'character')}, not keys (the file's content is not shown)`;
  if (Array.isArray(value)) return `a list of ${plural(value.length, 'item')} (the file's content is not shown)`;
  return describeFound(value);
}

/** A string quoted up to its first line break and at most QUOTE_LIMIT characters, with its length when cut. */
export function quoteLine(text: string): string {
  const line = text.split(/\r?\n|\r/, 1)[0]!.trim();
  const cut = [...line].slice(0, QUOTE_LIMIT).join('');
  if (cut === text) return JSON.stringify(text);
  return `${JSON.stringify(`${cut}…`)} (${plural(text.length, 'character')}, cut)`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

const described = new WeakMap<object, string>();

/** A key path as written in the file: `compression.threshold`, `disabled_hooks[1]`. */
export function formatKeyPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, segment) => {
    if (typeof segment === 'number') return `${text}[${segment}]`;
    return text === '' ? String(segment) : `${text}.${String(segment)}`;
  }, '');
}

/** Converts zod issues (parsed with `configErrorMap` and `reportInput`) to located config issues. */
export function toConfigIssues(
  issues: readonly z.core.$ZodIssue[],
  options: { file?: string; locate?: ConfigLocator; prefix?: readonly PropertyKey[] } = {},
): ConfigIssue[] {
  const prefix = options.prefix ?? [];
  const locate: ConfigLocator = options.locate ?? (() => undefined);
  return issues.flatMap((issue): ConfigIssue[] => {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) =>
        located(options.file, locate([...path, key], 'key'), [...path, key], issue.message, quoteLine(key)),
      );
    }
    const found = path.length === 0 ? describeWholeFile(issue.input) : describeFound(issue.input);
    return [located(options.file, locate(path, 'value'), path, issue.message, found)];
  });
}

function located(
  file: string | undefined,
  position: { line: number; column: number } | undefined,
  path: readonly PropertyKey[],
  expected: string,
  found: string,
): ConfigIssue {
  return { file, line: position?.line, column: position?.column, path: formatKeyPath(path), expected, found };
}
