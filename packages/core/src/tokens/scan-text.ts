/**
 * Counts of the character classes of a text that tokenize differently. A BPE tokenizer spends about one token per
 * short word, more on long identifiers, about one per punctuation mark (JSON and code are dense in them), a few
 * digits per token, little on single spaces but something on indentation and newlines, and about one or more per
 * CJK character.
 */
export interface TextFeatures {
  /** Runs of ASCII letters (words, identifier pieces). */
  words: number;
  /** ASCII letters past the sixth of a run (long words and identifiers split into several tokens). */
  longWordLetters: number;
  /** ASCII digits. */
  digits: number;
  /** ASCII punctuation and symbols. */
  punctuation: number;
  /** Line breaks. */
  newlines: number;
  /** Spaces and tabs beyond the first of a run (indentation, alignment). */
  extraSpaces: number;
  /** CJK ideographs, kana and Hangul. */
  cjk: number;
  /** General punctuation, arrows, box drawing, shapes, dingbats (U+2000–U+27BF): line-number arrows, tree listings, status marks. */
  symbols: number;
  /** Other non-ASCII characters (accented and non-Latin letters, emoji halves). Too rare in the corpus to fit: a prior weight. */
  otherNonAscii: number;
}

const LETTER = 1;
const SPACE = 2;
const DIGIT = 3;
const NEWLINE = 4;
const PUNCTUATION = 5;
/** JSON writes it after a backslash (`\"`, `\\`): two punctuation marks. */
const ESCAPED_MARK = 6;
/** JSON writes it as a backslash and a letter (`\n`, `\t`, `\r`, `\b`, `\f`). */
const ESCAPED_LETTER = 7;
/** JSON writes it as `\u00xx`: left to `JSON.stringify` (rare). */
const UNICODE_ESCAPE = 8;

/** The class of each ASCII code in a text; 0 for the control characters that count as nothing. */
const TEXT_CLASS = (() => {
  const table = new Uint8Array(128);
  for (let code = 33; code < 128; code++) table[code] = PUNCTUATION;
  for (let code = 48; code <= 57; code++) table[code] = DIGIT;
  for (let code = 65; code <= 90; code++) table[code] = LETTER;
  for (let code = 97; code <= 122; code++) table[code] = LETTER;
  table[32] = SPACE;
  table[9] = SPACE;
  table[10] = NEWLINE;
  return table;
})();

/** The class of each ASCII code inside a JSON string literal, as `JSON.stringify` writes it. */
const JSON_STRING_CLASS = (() => {
  const table = TEXT_CLASS.slice();
  for (let code = 0; code < 32; code++) table[code] = UNICODE_ESCAPE;
  for (const code of [8, 9, 10, 12, 13]) table[code] = ESCAPED_LETTER;
  table[34] = ESCAPED_MARK;
  table[92] = ESCAPED_MARK;
  return table;
})();

/**
 * Adds the character classes of `text` to `target`: one pass, counting in locals (a table lookup per ASCII character,
 * a tight loop over each run of letters or spaces).
 */
export function scanTextInto(target: TextFeatures, text: string): void {
  scanInto(target, text, TEXT_CLASS, false);
}

/**
 * Adds the character classes of `JSON.stringify(text)` (quotes included) to `target`, without building it:
 * the escapes JSON writes for quotes, backslashes, line breaks and tabs are counted as written. A text with
 * another control character or a lone surrogate (written as `\uXXXX`) is stringified and scanned.
 */
export function scanJsonStringInto(target: TextFeatures, text: string): void {
  if (scanInto(target, text, JSON_STRING_CLASS, true)) target.punctuation += 2;
  else scanInto(target, JSON.stringify(text), TEXT_CLASS, false);
}

/** The scan itself; false (and nothing added) when `json` and the text needs a `\u` escape. */
function scanInto(target: TextFeatures, text: string, table: Uint8Array, json: boolean): boolean {
  let words = 0,
    longWordLetters = 0,
    digits = 0,
    punctuation = 0,
    newlines = 0,
    extraSpaces = 0,
    cjk = 0,
    symbols = 0,
    otherNonAscii = 0;
  const length = text.length;
  let index = 0;
  while (index < length) {
    const code = text.charCodeAt(index);
    if (code < 128) {
      const kind = table[code] as number;
      if (kind === LETTER || kind === ESCAPED_LETTER) {
        // A word: its first character (an escaped letter is a backslash, then a letter that starts a word), then
        // the letters that follow it, read in a tight loop.
        if (kind === ESCAPED_LETTER) punctuation++;
        words++;
        const start = index++;
        while (index < length && isAsciiLetter(text.charCodeAt(index))) index++;
        if (index - start > 6) longWordLetters += index - start - 6;
        continue;
      }
      if (kind === SPACE) {
        const start = index++;
        let next = text.charCodeAt(index);
        while (next < 128 && table[next] === SPACE) next = text.charCodeAt(++index);
        extraSpaces += index - start - 1;
        continue;
      }
      index++;
      if (kind === PUNCTUATION) punctuation++;
      else if (kind === DIGIT) digits++;
      else if (kind === NEWLINE) newlines++;
      else if (kind === ESCAPED_MARK) punctuation += 2;
      else if (kind === UNICODE_ESCAPE) return false;
      continue;
    }
    index++;
    if (json && code >= 0xd800 && code <= 0xdfff) {
      // A surrogate pair is written as it is (two other characters); a lone surrogate as `\uXXXX`.
      const next = text.charCodeAt(index);
      if (code > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return false;
      otherNonAscii += 2;
      index++;
    } else if (isCjk(code)) cjk++;
    else if (code >= 0x2000 && code <= 0x27bf) symbols++;
    else otherNonAscii++;
  }
  target.words += words;
  target.longWordLetters += longWordLetters;
  target.digits += digits;
  target.punctuation += punctuation;
  target.newlines += newlines;
  target.extraSpaces += extraSpaces;
  target.cjk += cjk;
  target.symbols += symbols;
  target.otherNonAscii += otherNonAscii;
  return true;
}

/** A-Z or a-z. */
function isAsciiLetter(code: number): boolean {
  return ((code | 32) - 97) >>> 0 < 26;
}

function isCjk(code: number): boolean {
  return (
    (code >= 0x3040 && code <= 0x30ff) ||
    (code >= 0x3400 && code <= 0x9fff) ||
    (code >= 0xac00 && code <= 0xd7af) ||
    (code >= 0xf900 && code <= 0xfaff)
  );
}

/** Adds `counts` to `target`. */
export function addCounts(target: TextFeatures, counts: TextFeatures): void {
  target.words += counts.words;
  target.longWordLetters += counts.longWordLetters;
  target.digits += counts.digits;
  target.punctuation += counts.punctuation;
  target.newlines += counts.newlines;
  target.extraSpaces += counts.extraSpaces;
  target.cjk += counts.cjk;
  target.symbols += counts.symbols;
  target.otherNonAscii += counts.otherNonAscii;
}
