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

/** Describes a found value for a message: strings quoted, lists and mappings shortened. */
export function describeFound(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'an empty value';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return JSON.stringify(value);
  if (typeof value !== 'object') return String(value);
  // Many issues can point into one large mapping: describe each object once, not once per issue (that was quadratic).
  const cached = described.get(value);
  if (cached !== undefined) return cached;
  const text = JSON.stringify(value) ?? String(value);
  const short = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  const description = Array.isArray(value) ? `a list ${short}` : `a mapping ${short}`;
  described.set(value, description);
  return description;
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
        located(options.file, locate([...path, key], 'key'), [...path, key], issue.message, JSON.stringify(key)),
      );
    }
    return [located(options.file, locate(path, 'value'), path, issue.message, describeFound(issue.input))];
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
