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
      if (value !== undefined) key += fieldPrefix(field) + valueKey(value, 1);
    }
    key += '}';
  }
  return `${key}]`;
}

function valueKey(value: unknown, depth: number): string {
  if (typeof value === 'string') return lengthPrefix('s', value.length) + value;
  if (typeof value !== 'object' || value === null || depth >= FIELD_DEPTH) {
    const json = JSON.stringify(value) ?? 'null';
    return lengthPrefix('j', json.length) + json;
  }
  if (Array.isArray(value)) {
    let key = '[';
    for (const item of value) key += valueKey(item ?? null, depth + 1);
    return `${key}]`;
  }
  let key = '{';
  for (const field in value) {
    const inner = (value as Record<string, unknown>)[field];
    if (inner !== undefined) key += fieldPrefix(field) + valueKey(inner, depth + 1);
  }
  return `${key}}`;
}

/*
 * The short pieces of a key, made once: building `4:type` or `s12:` anew for every field and string made
 * several short strings each, the larger part of what a first call allocated for its keys.
 */
const fieldPrefixes = new Map<string, string>();
/** Field names remembered (a framework's own field names; past this, made each time). */
const MAX_FIELD_PREFIXES = 1024;

function fieldPrefix(field: string): string {
  let prefix = fieldPrefixes.get(field);
  if (prefix === undefined) {
    prefix = `${field.length}:${field}`;
    if (fieldPrefixes.size < MAX_FIELD_PREFIXES) fieldPrefixes.set(field, prefix);
  }
  return prefix;
}

/** Lengths whose prefix is made once. */
const PREFIXED_LENGTHS = 4096;
const stringPrefixes = Array.from({ length: PREFIXED_LENGTHS }, (_, length) => `s${length}:`);
const jsonPrefixes = Array.from({ length: PREFIXED_LENGTHS }, (_, length) => `j${length}:`);

function lengthPrefix(tag: 's' | 'j', length: number): string {
  if (length < PREFIXED_LENGTHS) return (tag === 's' ? stringPrefixes : jsonPrefixes)[length]!;
  return `${tag}${length}:`;
}
