import { describe, expect, it } from 'vitest';
import { scanJsonStringInto, scanTextInto } from './scan-text.js';
import { emptyTokenFeatures } from './token-features.js';

describe('scanTextInto', () => {
  it('counts runs of letters and spaces: one word per run, the letters past six, the spaces past one', () => {
    const features = emptyTokenFeatures();
    scanTextInto(features, 'Hello,  worldwide\t\tok 42\n');
    expect(features).toEqual({
      ...emptyTokenFeatures(),
      words: 3,
      longWordLetters: 3,
      digits: 2,
      punctuation: 1,
      newlines: 1,
      extraSpaces: 2,
    });
  });
});

describe('scanJsonStringInto', () => {
  it('counts the escapes as JSON writes them: an escaped tab starts a word that the letters after it continue', () => {
    const text = 'a\tbcdefghij "x"';
    const features = emptyTokenFeatures();
    scanJsonStringInto(features, text);
    const written = emptyTokenFeatures();
    scanTextInto(written, JSON.stringify(text));
    expect(features).toEqual({ ...emptyTokenFeatures(), words: 3, longWordLetters: 4, punctuation: 7 });
    expect(features).toEqual(written);
  });
});
