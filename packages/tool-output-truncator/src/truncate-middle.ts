export interface TruncateMiddleOptions {
  /** Characters to keep in all (head plus tail). */
  keepChars: number;
  /** Share of `keepChars` kept at the head. */
  headRatio: number;
  /** Builds the marker put where the middle was, from the count of characters cut. */
  marker: (cutChars: number, cutLines: number) => string;
}

export interface TruncatedText {
  text: string;
  cutChars: number;
}

/**
 * Keeps the head and the tail of a text and replaces the middle with a marker
 * that counts what was cut. Build errors and test summaries sit at the end of
 * an output, so the tail is never dropped. Cuts snap to line boundaries when a
 * boundary is near, so no line is half-kept.
 */
export function truncateMiddle(text: string, options: TruncateMiddleOptions): TruncatedText {
  if (text.length <= options.keepChars) return { text, cutChars: 0 };
  const headEnd = snapBack(text, Math.floor(options.keepChars * options.headRatio));
  const tailStart = snapForward(text, text.length - (options.keepChars - headEnd));
  const middle = text.slice(headEnd, tailStart);
  const cutLines = middle.split('\n').length - 1;
  return {
    text: text.slice(0, headEnd) + options.marker(middle.length, cutLines) + text.slice(tailStart),
    cutChars: middle.length,
  };
}

const SNAP_WINDOW = 200;

function snapBack(text: string, index: number): number {
  const newline = text.lastIndexOf('\n', index);
  return newline >= 0 && index - newline <= SNAP_WINDOW ? newline + 1 : wholeCharacterBefore(text, index);
}

function snapForward(text: string, index: number): number {
  const newline = text.indexOf('\n', index);
  return newline >= 0 && newline - index <= SNAP_WINDOW ? newline + 1 : wholeCharacterAfter(text, index);
}

/** A cut never falls between the two halves of a surrogate pair (an emoji): a lone half is invalid UTF-16 the API may reject. */
function wholeCharacterBefore(text: string, index: number): number {
  return index > 0 && isHighSurrogate(text.charCodeAt(index - 1)) ? index - 1 : index;
}

function wholeCharacterAfter(text: string, index: number): number {
  return index < text.length && isLowSurrogate(text.charCodeAt(index)) ? index + 1 : index;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
