import { addScannedFeatures } from './cached-scan.js';
import { scanJsonStringInto, scanTextInto, type TextFeatures } from './scan-text.js';
import { createTextFeaturesCache } from './text-features-cache.js';

/** Long strings of JSON values, scanned as `JSON.stringify` writes them, by content (shared like `textFeaturesCache`). */
export const jsonStringFeaturesCache = createTextFeaturesCache<TextFeatures>();

/** Nesting walked value by value; a deeper value is stringified and scanned (the same counts, and a cycle throws as in `JSON.stringify`). */
const MAX_WALK_DEPTH = 64;

/**
 * Adds the character classes of `JSON.stringify(value)` to `target` without building that text (a tool
 * call's input is counted as the JSON the provider is sent): each string scanned with its escapes, the
 * structure (braces, brackets, quotes, colons, commas) counted. A string value or key is always between
 * punctuation, so the counts of the parts add up to the counts of the whole. A value `JSON.stringify` would
 * treat its own way (`toJSON`, an object of a class) is stringified and scanned.
 */
export function addJsonFeatures(target: TextFeatures, value: unknown): void {
  if (!addValue(target, value, 0)) target.words++; // `undefined` alone is sent as `null`
}

/** False when the value is not written at all (`undefined`, a function, a symbol). */
function addValue(target: TextFeatures, value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
      addJsonString(target, value);
      return true;
    case 'number':
      scanTextInto(target, Number.isFinite(value) ? String(value) : 'null');
      return true;
    case 'boolean':
      target.words++;
      return true;
    case 'object':
      if (value === null) {
        target.words++;
        return true;
      }
      if (depth < MAX_WALK_DEPTH && isPlain(value)) {
        if (Array.isArray(value)) addArray(target, value, depth);
        else addObject(target, value as Record<string, unknown>, depth);
        return true;
      }
      return addStringified(target, value);
    case 'undefined':
    case 'function':
    case 'symbol':
      return false;
    default:
      return addStringified(target, value); // a bigint throws, as in JSON.stringify
  }
}

function addArray(target: TextFeatures, items: readonly unknown[], depth: number): void {
  target.punctuation += items.length === 0 ? 2 : items.length + 1; // brackets and commas
  for (let index = 0; index < items.length; index++) if (!addValue(target, items[index], depth + 1)) target.words++; // written as null
}

function addObject(target: TextFeatures, record: Record<string, unknown>, depth: number): void {
  let members = 0;
  for (const key in record) {
    if (!addValue(target, record[key], depth + 1)) continue;
    members++;
    addJsonString(target, key);
  }
  target.punctuation += members === 0 ? 2 : 2 * members + 1; // braces, colons and commas
}

function addJsonString(target: TextFeatures, text: string): void {
  addScannedFeatures(target, text, jsonStringFeaturesCache, scanJsonStringInto);
}

function addStringified(target: TextFeatures, value: unknown): boolean {
  const json = JSON.stringify(value);
  if (json === undefined) return false;
  scanTextInto(target, json);
  return true;
}

/** An array or object `JSON.stringify` writes field by field: its own prototype's, no `toJSON`. */
function isPlain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== Array.prototype && prototype !== null) return false;
  return typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}
