import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  addTextFeatures,
  emptyTokenFeatures,
  estimateTextTokens,
  estimateTokens,
  ESTIMATOR_WEIGHTS,
  textFeaturesCache,
  type TokenFeatures,
} from './estimate-tokens.js';
import { CACHED_TEXT_MIN_LENGTH, TEXT_FEATURES_CACHE_CHARS } from './text-features-cache.js';
import type { Message, Part } from '../model/message.js';

const prose = 'The quick brown fox jumps over the lazy dog while the farmer watches from the porch. ';
const json = JSON.stringify({
  items: [
    { id: 1, name: 'a', tags: ['x', 'y'] },
    { id: 2, name: 'b', tags: [] },
  ],
  total: 2,
  ok: true,
});
const code = 'for (let i = 0; i < n; i++) { if (a[i] !== b[i]) return false; }\n';

describe('addTextFeatures', () => {
  const cases: { text: string; expected: Partial<TokenFeatures> }[] = [
    { text: '', expected: { words: 0, punctuation: 0 } },
    { text: 'hello world', expected: { words: 2, longWordLetters: 0, extraSpaces: 0 } },
    { text: 'internationalization', expected: { words: 1, longWordLetters: 14 } },
    { text: 'a  b\t\tc', expected: { words: 3, extraSpaces: 2 } },
    { text: '{"a":[1,22]}', expected: { words: 1, digits: 3, punctuation: 8 } },
    { text: 'line\nline\n', expected: { words: 2, newlines: 2 } },
    { text: '日本語한국어', expected: { cjk: 6 } },
    { text: '├── src', expected: { symbols: 3, words: 1 } },
    { text: 'café → ok', expected: { otherNonAscii: 1, symbols: 1, words: 2 } },
  ];
  it.each(cases)('$text', ({ text, expected }) => {
    expect(addTextFeatures(emptyTokenFeatures(), text)).toMatchObject(expected);
  });

  it('counts exactly as the plain character-by-character definition, short and long texts, cached or not', () => {
    const alphabet = fc.constantFrom(
      'a',
      'Z',
      'q',
      ' ',
      '\t',
      '\n',
      '\r',
      '0',
      '7',
      '{',
      '~',
      '\u007f',
      '\u0001',
      'é',
      '日',
      '한',
      '→',
      '├',
      '😀',
    );
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }), fc.integer({ min: 1, max: 12 }), (characters, repeat) => {
        const text = characters.join('').repeat(repeat * 8);
        const expected = referenceFeatures(text);
        expect(addTextFeatures(emptyTokenFeatures(), text)).toEqual(expected);
        expect(addTextFeatures(emptyTokenFeatures(), text)).toEqual(expected);
      }),
      { seed: 3, numRuns: 300 },
    );
  });

  it('scans a long text once and answers its copies from the shared cache', () => {
    textFeaturesCache.clear();
    const text = `${prose}${json}`.repeat(Math.ceil(CACHED_TEXT_MIN_LENGTH / 100));
    addTextFeatures(emptyTokenFeatures(), text);
    expect(textFeaturesCache.chars).toBe(text.length);
    const copy = [...text].join('');
    expect(addTextFeatures(emptyTokenFeatures(), copy)).toEqual(referenceFeatures(text));
    expect(textFeaturesCache.chars).toBe(text.length);
    addTextFeatures(emptyTokenFeatures(), 'short text');
    expect(textFeaturesCache.chars).toBe(text.length);
  });

  it('counts the same while the shared cache skips, storing nothing', () => {
    textFeaturesCache.clear();
    const text = `${prose}${json}`.repeat(Math.ceil(TEXT_FEATURES_CACHE_CHARS / 4 / (prose.length + json.length)));
    const expected = referenceFeatures(text);
    expect(addTextFeatures(emptyTokenFeatures(), text)).toEqual(expected); // a quarter of the cache missed: it skips
    expect(textFeaturesCache.skipping).toBe(true);
    expect(addTextFeatures(emptyTokenFeatures(), text)).toEqual(expected);
    expect(textFeaturesCache.chars).toBe(0);
    textFeaturesCache.clear();
  });
});

/** The estimator's character classes as first written: one branch per class, per character. */
function referenceFeatures(text: string): TokenFeatures {
  const features = emptyTokenFeatures();
  let previous = 0;
  let runLength = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90)) {
      if (previous === 1) runLength++;
      else {
        features.words++;
        runLength = 1;
      }
      if (runLength > 6) features.longWordLetters++;
      previous = 1;
    } else if (code === 32 || code === 9) {
      if (previous === 2) features.extraSpaces++;
      previous = 2;
    } else {
      previous = 0;
      if (code >= 48 && code <= 57) features.digits++;
      else if (code === 10) features.newlines++;
      else if (code < 128) {
        if (code > 32) features.punctuation++;
      } else if (
        (code >= 0x3040 && code <= 0x30ff) ||
        (code >= 0x3400 && code <= 0x9fff) ||
        (code >= 0xac00 && code <= 0xd7af) ||
        (code >= 0xf900 && code <= 0xfaff)
      )
        features.cjk++;
      else if (code >= 0x2000 && code <= 0x27bf) features.symbols++;
      else features.otherNonAscii++;
    }
  }
  return features;
}

describe('estimateTextTokens', () => {
  it('is zero for empty text', () => {
    expect(estimateTextTokens('')).toBe(0);
  });

  it('spends more tokens per character on JSON and code than on prose', () => {
    const perCharacter = (text: string) => estimateTextTokens(text.repeat(20)) / (text.length * 20);
    expect(perCharacter(json)).toBeGreaterThan(perCharacter(prose) * 1.3);
    expect(perCharacter(code)).toBeGreaterThan(perCharacter(prose) * 1.3);
  });

  it('spends at least a token per CJK character', () => {
    const text = '这是一个测试句子用于估计'.repeat(10);
    expect(estimateTextTokens(text)).toBeGreaterThanOrEqual(text.length);
  });

  it('grows with the text', () => {
    expect(estimateTextTokens(prose.repeat(2))).toBeGreaterThan(estimateTextTokens(prose));
  });
});

function message(parts: Part[], role: Message['role'] = 'user'): Message {
  return { id: 'm', role, parts };
}

describe('estimateTokens', () => {
  const text = (value: string): Part => ({ id: 't', type: 'text', text: value });

  it('adds a per-message overhead to the text', () => {
    expect(estimateTokens(message([text(prose)]))).toBe(
      Math.round(estimateTextTokens(prose) + ESTIMATOR_WEIGHTS.messages + ESTIMATOR_WEIGHTS.parts),
    );
  });

  it('sums a list of messages', () => {
    const one = message([text('hello there')]);
    expect(estimateTokens([one, one, one])).toBeCloseTo(estimateTokens(one) * 3, -1);
    expect(estimateTokens([])).toBe(0);
  });

  it('counts tool calls with their JSON input and a call overhead', () => {
    const input = { command: 'ls -la /tmp', timeout: 1000 };
    const call = message([{ id: 'c', type: 'tool-call', callId: 'x', name: 'bash', input }], 'assistant');
    const expected =
      estimateTextTokens('bash') +
      estimateTextTokens(JSON.stringify(input)) +
      ESTIMATOR_WEIGHTS.messages +
      ESTIMATOR_WEIGHTS.parts +
      ESTIMATOR_WEIGHTS.toolCalls;
    expect(estimateTokens(call)).toBeCloseTo(expected, -1);
  });

  it('counts tool results given as text or as content blocks alike', () => {
    const asText = message([{ id: 'r', type: 'tool-result', callId: 'x', output: json }], 'tool');
    const asBlocks = message(
      [{ id: 'r', type: 'tool-result', callId: 'x', output: [{ type: 'text', text: json }] }],
      'tool',
    );
    expect(estimateTokens(asBlocks)).toBe(estimateTokens(asText));
  });

  it('gives an image a fixed cost whatever its data size', () => {
    const image = (data: string) =>
      message([{ id: 'i', type: 'image', source: { kind: 'base64', mediaType: 'image/png', data } }]);
    expect(estimateTokens(image('a'.repeat(10)))).toBe(estimateTokens(image('a'.repeat(100_000))));
    expect(estimateTokens(image(''))).toBeGreaterThanOrEqual(ESTIMATOR_WEIGHTS.media);
  });

  it('counts reasoning text with its message', () => {
    const withReasoning = message(
      [{ id: 'r', type: 'reasoning', text: prose, signature: 's' }, text('done')],
      'assistant',
    );
    expect(estimateTokens(withReasoning)).toBeGreaterThan(
      estimateTokens(message([text('done')], 'assistant')) + estimateTextTokens(prose) - 1,
    );
  });
});
