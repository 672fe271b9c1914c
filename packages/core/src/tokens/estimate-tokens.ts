import type { Message, Part, ToolResultContent } from '../model/message.js';

/**
 * Counts of the character classes that tokenize differently. A BPE tokenizer
 * spends about one token per short word, more on long identifiers, about one per
 * punctuation mark (JSON and code are dense in them), a few digits per token,
 * little on single spaces but something on indentation and newlines, and about
 * one or more per CJK character.
 */
export interface TokenFeatures {
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
  /** Structure: messages, parts, tool calls, tool results, media items. */
  messages: number;
  parts: number;
  toolCalls: number;
  toolResults: number;
  media: number;
}

export type TokenWeights = Readonly<Record<keyof TokenFeatures, number>>;

/**
 * Weights fitted on the Claude Code corpus (packages/core/scripts/calibrate-estimator.ts,
 * least squares on relative error over prompt-growth deltas): tokens = Σ weight × feature.
 * `cjk` and `otherNonAscii` are priors (too rare in the corpus to fit); media use a fixed
 * cost (a typical screenshot); `parts` and `toolResults` fitted to zero (the per-message
 * overhead covers them). Median error on the corpus: 6.7% (main thread), chars/4: 19.3%.
 */
export const ESTIMATOR_WEIGHTS: TokenWeights = Object.freeze({
  words: 1,
  longWordLetters: 0.03,
  digits: 1.28,
  punctuation: 0.94,
  newlines: 2,
  extraSpaces: 0,
  cjk: 1.2,
  symbols: 0.74,
  otherNonAscii: 0.8,
  messages: 16.3,
  parts: 0,
  toolCalls: 41.4,
  toolResults: 0,
  media: 1600,
});

export function emptyTokenFeatures(): TokenFeatures {
  return {
    words: 0, longWordLetters: 0, digits: 0, punctuation: 0, newlines: 0, extraSpaces: 0, cjk: 0, symbols: 0, otherNonAscii: 0,
    messages: 0, parts: 0, toolCalls: 0, toolResults: 0, media: 0,
  };
}

/** Adds the character classes of `text` to `features` (one pass over the string). */
export function addTextFeatures(features: TokenFeatures, text: string): TokenFeatures {
  let previous = 0; // 1 letter, 2 space, 0 other
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
      else if (code < 128) { if (code > 32) features.punctuation++; }
      else if (isCjk(code)) features.cjk++;
      else if (code >= 0x2000 && code <= 0x27bf) features.symbols++;
      else features.otherNonAscii++;
    }
  }
  return features;
}

function isCjk(code: number): boolean {
  return (code >= 0x3040 && code <= 0x30ff) || (code >= 0x3400 && code <= 0x9fff) || (code >= 0xac00 && code <= 0xd7af) || (code >= 0xf900 && code <= 0xfaff);
}

/** Adds one message's features (text of every part plus its structure). */
export function addMessageFeatures(features: TokenFeatures, message: Message): TokenFeatures {
  features.messages++;
  for (const part of message.parts) addPartFeatures(features, part);
  return features;
}

function addPartFeatures(features: TokenFeatures, part: Part): void {
  features.parts++;
  switch (part.type) {
    case 'text':
    case 'reasoning':
      addTextFeatures(features, part.text);
      return;
    case 'tool-call':
      features.toolCalls++;
      addTextFeatures(features, part.name);
      addTextFeatures(features, JSON.stringify(part.input ?? null));
      return;
    case 'tool-result':
      features.toolResults++;
      if (typeof part.output === 'string') addTextFeatures(features, part.output);
      else for (const block of part.output) addContentFeatures(features, block);
      return;
    case 'image':
    case 'file':
      addSourceFeatures(features, part.source);
  }
}

function addContentFeatures(features: TokenFeatures, block: ToolResultContent): void {
  if (block.type === 'text') addTextFeatures(features, block.text);
  else addSourceFeatures(features, block.source);
}

function addSourceFeatures(features: TokenFeatures, source: { kind: string; text?: string }): void {
  if (source.kind === 'text' && source.text !== undefined) addTextFeatures(features, source.text);
  else features.media++;
}

export function weighTokenFeatures(features: TokenFeatures, weights: TokenWeights = ESTIMATOR_WEIGHTS): number {
  let total = 0;
  for (const key of Object.keys(weights) as (keyof TokenFeatures)[]) total += weights[key] * features[key];
  return Math.round(total);
}

/** Estimated tokens of a bare string (no message or part overhead). */
export function estimateTextTokens(text: string): number {
  return weighTokenFeatures(addTextFeatures(emptyTokenFeatures(), text));
}

/** Estimated tokens of one message or a list of messages, overheads included. */
export function estimateTokens(messageOrMessages: Message | readonly Message[]): number {
  const features = emptyTokenFeatures();
  if (isMessageList(messageOrMessages)) for (const message of messageOrMessages) addMessageFeatures(features, message);
  else addMessageFeatures(features, messageOrMessages);
  return weighTokenFeatures(features);
}

function isMessageList(value: Message | readonly Message[]): value is readonly Message[] {
  return Array.isArray(value);
}
