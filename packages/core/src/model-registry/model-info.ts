import type { ModelLimitSources } from './model-limit-sources.js';

/** Prices in USD per million tokens. `cacheWrite` is the (5-minute) cache write; absent means not billed apart from input. */
export interface ModelPrices {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/**
 * A longer window or a price tier above a prompt size. Claude Sonnet 4 and 4.5
 * reach 1M tokens with a beta (ask for `claude-sonnet-4-5[1m]`); Gemini Pro bills
 * prompts over 200k at higher prices.
 */
export interface LongContextTier {
  /** The window with the variant on; absent when the base window is already the long one. */
  contextWindow?: number;
  /** Prompts longer than this many tokens are billed at `pricing`. */
  aboveTokens: number;
  pricing: ModelPrices;
  /** The provider beta that turns the long window on (`context-1m-2025-08-07`). */
  beta?: string;
}

/** What ctxhost knows about a model: from the registry, a config `models:` entry, or both. */
export interface ModelInfo {
  /** The registry's id for the model (the query may have been dated, prefixed or spelt with dots). */
  id: string;
  provider: string;
  name?: string;
  contextWindow: number;
  maxOutputTokens: number;
  pricing?: ModelPrices;
  /** The public tokenizer's encoding (`o200k_base`, `cl100k_base`…) where there is one. */
  tokenizer?: string;
  longContext?: LongContextTier;
  /** Where `contextWindow` and `maxOutputTokens` came from, and what other sources state for them. */
  limitSources?: ModelLimitSources;
}

/** A config `models:` entry (camelCase): overrides fields of a known model, or adds a model (then `contextWindow` is required). */
export interface ModelOverride {
  provider?: string;
  contextWindow?: number;
  maxOutputTokens?: number;
  pricing?: ModelPrices;
  tokenizer?: string;
}
