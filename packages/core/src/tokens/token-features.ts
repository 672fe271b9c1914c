import type { TextFeatures } from './scan-text.js';

/** A message's counts: its texts' character classes (`TextFeatures`) and its structure. */
export interface TokenFeatures extends TextFeatures {
  /** Structure: messages, parts, tool calls, tool results, media items. */
  messages: number;
  parts: number;
  toolCalls: number;
  toolResults: number;
  media: number;
}

/**
 * No counts. Also what a text's counts are scanned into (the text cache's entries, the JSON walk's targets): one
 * shape for every object the scan and `addCounts` touch, and one literal for the fields.
 */
export function emptyTokenFeatures(): TokenFeatures {
  return {
    words: 0,
    longWordLetters: 0,
    digits: 0,
    punctuation: 0,
    newlines: 0,
    extraSpaces: 0,
    cjk: 0,
    symbols: 0,
    otherNonAscii: 0,
    messages: 0,
    parts: 0,
    toolCalls: 0,
    toolResults: 0,
    media: 0,
  };
}
