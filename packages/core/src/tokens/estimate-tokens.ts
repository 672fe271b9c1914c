import type { Message, Part, ToolResultContent } from '../model/message.js';
import { addJsonFeatures } from './json-features.js';
import { addScannedFeatures } from './cached-scan.js';
import { scanTextInto, type TextFeatures } from './scan-text.js';
import { createTextFeaturesCache } from './text-features-cache.js';
import { emptyTokenFeatures, type TokenFeatures } from './token-features.js';

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

/** Adds the character classes of `text` to `features`: one pass over the string, or none for a long text seen before. */
export function addTextFeatures(features: TokenFeatures, text: string): TokenFeatures {
  addScannedFeatures(features, text, textFeaturesCache, scanTextInto);
  return features;
}

export type { TextFeatures, TokenFeatures };
export { emptyTokenFeatures };

/** Long texts are scanned once per content and remembered here (shared by every counter and session in the process). */
export const textFeaturesCache = createTextFeaturesCache<TextFeatures>();

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
      addJsonFeatures(features, part.input);
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
  // Written out (in the order of TokenFeatures' fields), not a loop over the names: a keyed load per field was a tenth of a count.
  return Math.round(
    weights.words * features.words +
      weights.longWordLetters * features.longWordLetters +
      weights.digits * features.digits +
      weights.punctuation * features.punctuation +
      weights.newlines * features.newlines +
      weights.extraSpaces * features.extraSpaces +
      weights.cjk * features.cjk +
      weights.symbols * features.symbols +
      weights.otherNonAscii * features.otherNonAscii +
      weights.messages * features.messages +
      weights.parts * features.parts +
      weights.toolCalls * features.toolCalls +
      weights.toolResults * features.toolResults +
      weights.media * features.media,
  );
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
