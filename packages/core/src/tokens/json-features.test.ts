import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addJsonFeatures, jsonStringFeaturesCache } from './json-features.js';
import { scanTextInto, type TextFeatures } from './scan-text.js';
import { emptyTokenFeatures } from './token-features.js';
import { CACHED_TEXT_MIN_LENGTH } from './text-features-cache.js';

/** What the walk must equal: the scan of the JSON text itself. */
function ofStringified(value: unknown): TextFeatures {
  const features = emptyTokenFeatures();
  scanTextInto(features, JSON.stringify(value ?? null));
  return features;
}

function walked(value: unknown): TextFeatures {
  const features = emptyTokenFeatures();
  addJsonFeatures(features, value);
  return features;
}

const characters = fc.constantFrom(
  'a',
  'Z',
  'n',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r',
  '\b',
  '\f',
  '\u0001',
  '\u001b',
  '"',
  '\\',
  '/',
  '0',
  '7',
  '{',
  '\u007f',
  'é',
  '日',
  '→',
  '😀',
  '\ud83d',
  '\ude00',
);
const text = fc.array(characters, { maxLength: 30 }).map((parts) => parts.join(''));
const longText = fc
  .tuple(text, fc.integer({ min: 1, max: 40 }))
  .map(([value, repeat]) => value.repeat(Math.ceil(CACHED_TEXT_MIN_LENGTH / Math.max(value.length, 1)) * repeat));
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text,
    longText,
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(text, tie('value'), { maxKeys: 5 }),
  ),
})).value;

describe('addJsonFeatures', () => {
  it('counts exactly what a scan of JSON.stringify counts, escapes, surrogates, holes and skipped fields included', () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(walked(value)).toEqual(ofStringified(value));
        expect(walked(value)).toEqual(ofStringified(value)); // again, long strings from the cache
      }),
      { seed: 7, numRuns: 500 },
    );
  });

  it.each([
    ['a lone surrogate', { text: 'a\ud800b' }],
    ['control characters', ['\u0000\u001f', 'x\u000by']],
    ['a function and a symbol', { run: () => 1, tag: Symbol('x'), kept: 1, list: [() => 1, Symbol('y')] }],
    ['an object with toJSON', { when: new Date(0), custom: { toJSON: () => 'as text' } }],
    ['an object of a class', { url: new URL('https://example.com/a?b=c') }],
    ['a sparse array', [1, , 3]], // eslint-disable-line no-sparse-arrays
    ['numbers', [0, -0, 1e21, 1.5e-7, Number.NaN, Number.POSITIVE_INFINITY, -12.75]],
    ['numeric keys', { 2: 'b', 1: 'a', z: 'z' }],
    ['nothing', undefined],
    ['a deep nest', JSON.parse(`${'['.repeat(100)}"deep"${']'.repeat(100)}`) as unknown],
  ])('%s', (_name, value) => {
    expect(walked(value)).toEqual(ofStringified(value));
  });

  it('scans a long string once and answers its copies from its cache', () => {
    jsonStringFeaturesCache.clear();
    const long = 'line "one"\n\tline two\n'.repeat(40);
    walked({ content: long });
    expect(jsonStringFeaturesCache.chars).toBe(long.length);
    expect(walked({ content: [...long].join('') })).toEqual(ofStringified({ content: long }));
    expect(jsonStringFeaturesCache.chars).toBe(long.length);
  });

  it('throws on a cycle and on a bigint, as JSON.stringify does', () => {
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(() => walked(cycle)).toThrow();
    expect(() => walked({ n: 1n })).toThrow();
  });
});
