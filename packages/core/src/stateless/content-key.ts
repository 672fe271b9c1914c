import type { Message } from '../model/message.js';

/** Nesting below which a value is keyed field by field; deeper values (tool inputs' insides) as JSON. */
const FIELD_DEPTH = 4;

/** Where a content key is written, piece by piece: the key is the pieces one after another. */
export interface ContentKeySink {
  /** Appends a piece: the key's own syntax (ASCII) or a value's string, whole, as it is. */
  add(piece: string): void;
}

/**
 * What a message says as one string, without ids or cache markers: equal exactly when role and parts
 * are (each string length-prefixed, so no separator can be forged, and appended as it is: no escaping
 * or copying of a long text until the string is hashed, unlike `JSON.stringify`).
 */
export function contentKey(message: Message): string {
  const sink = new KeyString();
  writeContentKey(message, sink);
  return sink.key;
}

class KeyString implements ContentKeySink {
  key = '';
  add(piece: string): void {
    this.key += piece;
  }
}

/**
 * Writes `contentKey(message)` into `sink` piece by piece, so a hasher can take a long text as it is instead of
 * a flattened copy of the whole key. Every value's string is one piece with syntax on both sides, so a
 * surrogate pair is never split across two pieces.
 */
export function writeContentKey(message: Message, sink: ContentKeySink): void {
  sink.add(message.role);
  sink.add('[');
  for (const part of message.parts) {
    sink.add('{');
    for (const field in part) {
      if (field === 'id' || field === 'cacheControl') continue;
      const value = (part as Record<string, unknown>)[field];
      if (value === undefined) continue;
      sink.add(fieldPrefix(field));
      writeValue(value, 1, sink);
    }
    sink.add('}');
  }
  sink.add(']');
}

function writeValue(value: unknown, depth: number, sink: ContentKeySink): void {
  if (typeof value === 'string') {
    sink.add(lengthPrefix('s', value.length));
    sink.add(value);
    return;
  }
  if (typeof value !== 'object' || value === null || depth >= FIELD_DEPTH) {
    const json = JSON.stringify(value) ?? 'null';
    sink.add(lengthPrefix('j', json.length));
    sink.add(json);
    return;
  }
  if (Array.isArray(value)) {
    sink.add('[');
    for (const item of value) writeValue(item ?? null, depth + 1, sink);
    sink.add(']');
    return;
  }
  sink.add('{');
  for (const field in value) {
    const inner = (value as Record<string, unknown>)[field];
    if (inner === undefined) continue;
    sink.add(fieldPrefix(field));
    writeValue(inner, depth + 1, sink);
  }
  sink.add('}');
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
