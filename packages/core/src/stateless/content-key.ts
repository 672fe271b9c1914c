import type { Message } from '../model/message.js';

/** Nesting below which a value is keyed field by field; deeper values (tool inputs' insides) as JSON. */
const FIELD_DEPTH = 4;

/**
 * What a message says as one string, without ids or cache markers: equal exactly when role and parts
 * are (each string length-prefixed, so no separator can be forged, and appended as it is: no escaping
 * or copying of a long text until the string is hashed, unlike `JSON.stringify`).
 */
export function contentKey(message: Message): string {
  let key = `${message.role}[`;
  for (const part of message.parts) {
    key += '{';
    for (const field in part) {
      if (field === 'id' || field === 'cacheControl') continue;
      const value = (part as Record<string, unknown>)[field];
      if (value !== undefined) key += `${field.length}:${field}${valueKey(value, 1)}`;
    }
    key += '}';
  }
  return `${key}]`;
}

function valueKey(value: unknown, depth: number): string {
  if (typeof value === 'string') return `s${value.length}:${value}`;
  if (typeof value !== 'object' || value === null || depth >= FIELD_DEPTH) {
    const json = JSON.stringify(value) ?? 'null';
    return `j${json.length}:${json}`;
  }
  if (Array.isArray(value)) {
    let key = '[';
    for (const item of value) key += valueKey(item ?? null, depth + 1);
    return `${key}]`;
  }
  let key = '{';
  for (const field in value) {
    const inner = (value as Record<string, unknown>)[field];
    if (inner !== undefined) key += `${field.length}:${field}${valueKey(inner, depth + 1)}`;
  }
  return `${key}}`;
}
