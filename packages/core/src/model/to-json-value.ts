import type { JsonValue } from './message.js';

/**
 * A framework's value (a tool call's input) as a JsonValue: the value itself when it already is one
 * (plain objects and arrays of strings, finite numbers, booleans and null: a walk, no copy), else what
 * a JSON round trip makes of it (undefined fields dropped, dates as strings, …); undefined is null.
 * Messages are treated as immutable throughout ctxhost, so sharing the caller's object is safe.
 */
export function toJsonValue(value: unknown): JsonValue {
  if (value === undefined) return null;
  return isJsonValue(value, 0) ? value : (JSON.parse(JSON.stringify(value)) as JsonValue);
}

/** Deeper than this is copied rather than walked (JSON.stringify then answers a cycle or a depth with its own error). */
const MAX_WALK_DEPTH = 64;

function isJsonValue(value: unknown, depth: number): value is JsonValue {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (value === null) return true;
      if (depth > MAX_WALK_DEPTH) return false;
      if (Array.isArray(value)) {
        for (const item of value) if (!isJsonValue(item, depth + 1)) return false;
        return true;
      }
      const prototype = Object.getPrototypeOf(value) as unknown;
      if (prototype !== Object.prototype && prototype !== null) return false;
      if ('toJSON' in value) return false;
      for (const key in value) if (!isJsonValue((value as Record<string, unknown>)[key], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}
