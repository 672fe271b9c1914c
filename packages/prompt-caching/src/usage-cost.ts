import type { ModelOverride, Usage } from '@ctxhost/core';
import type { CacheTtl } from './cache-marker.js';
import { DEFAULT_PRICING, type ModelPricing, type PricingTable } from './default-pricing.js';
import { UsageInvalidError } from './errors.js';
import { requireModelPricing } from './find-model-pricing.js';

/** Tokens (or dollars) by kind. `uncachedInput` is the API's `input_tokens`. */
export interface CostByKind {
  uncachedInput: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
  cacheRead: number;
  output: number;
}

export interface CostReport {
  model: string;
  requests: number;
  tokens: CostByKind & { prompt: number };
  dollars: CostByKind & { total: number };
  /** What the same requests would have cost without caching: every prompt token at the base input price, plus output. */
  withoutCaching: number;
  /** `withoutCaching - dollars.total`; negative when cache writes were never read back. */
  dollarsSaved: number;
  /** Cache-read tokens over prompt tokens (0 for an empty report). */
  cacheHitRatio: number;
}

export interface CostOptions {
  /** The table to price from (default DEFAULT_PRICING; see `pricingFromConfig`). */
  pricing?: PricingTable;
  /** The TTL of cache writes a usage does not split by TTL (default '5m'). */
  writeTtl?: CacheTtl;
  /** Core's `models:` config section: registry entries overridden or added (prices included). */
  models?: Readonly<Record<string, ModelOverride>>;
}

const MILLION = 1_000_000;

/** The cost of one request. Throws UnknownModelPricingError for a model without a price, UsageInvalidError for bad counts. */
export function usageCost(usage: Usage, model: string, options: CostOptions = {}): CostReport {
  return sessionCost([usage], model, options);
}

/** The cost of a sequence of requests to one model (a session), with the counterfactual cost without caching. */
export function sessionCost(usages: readonly Usage[], model: string, options: CostOptions = {}): CostReport {
  const pricing = requireModelPricing(model, options.pricing ?? DEFAULT_PRICING, options.models);
  const tokens = { uncachedInput: 0, cacheWrite5m: 0, cacheWrite1h: 0, cacheRead: 0, output: 0, prompt: 0 };
  let dollars = priceTokens(emptyTokens(), pricing);
  let withoutCaching = 0;
  usages.forEach((usage, index) => {
    // Each request is priced on its own: a prompt past the long-context threshold takes that tier's prices.
    const one = emptyTokens();
    addUsage(one, usage, `usages[${index}]`, options.writeTtl ?? '5m');
    const tier =
      pricing.longContext !== undefined && one.prompt > pricing.longContext.aboveTokens
        ? pricing.longContext.pricing
        : pricing;
    dollars = addCosts(dollars, priceTokens(one, tier));
    withoutCaching += (one.prompt * tier.inputPerMTok + one.output * tier.outputPerMTok) / MILLION;
    for (const key of Object.keys(tokens) as Array<keyof typeof tokens>) tokens[key] += one[key];
  });
  return {
    model,
    requests: usages.length,
    tokens,
    dollars,
    withoutCaching,
    dollarsSaved: withoutCaching - dollars.total,
    cacheHitRatio: tokens.prompt === 0 ? 0 : tokens.cacheRead / tokens.prompt,
  };
}

function addUsage(tokens: CostByKind & { prompt: number }, usage: Usage, where: string, writeTtl: CacheTtl): void {
  for (const field of ['inputTokens', 'outputTokens', 'cacheCreationInputTokens', 'cacheReadInputTokens'] as const) {
    checkCount(where, field, usage[field]);
  }
  const split = usage.cacheCreation;
  if (split !== undefined) {
    checkCount(where, 'cacheCreation.ephemeral5mInputTokens', split.ephemeral5mInputTokens);
    checkCount(where, 'cacheCreation.ephemeral1hInputTokens', split.ephemeral1hInputTokens);
  }
  // The TTL split, when the provider reports it, is authoritative; otherwise every write has `writeTtl`.
  const oneHour = split?.ephemeral1hInputTokens ?? (writeTtl === '1h' ? usage.cacheCreationInputTokens : 0);
  const fiveMinutes = split?.ephemeral5mInputTokens ?? usage.cacheCreationInputTokens - oneHour;
  tokens.uncachedInput += usage.inputTokens;
  tokens.cacheWrite5m += fiveMinutes;
  tokens.cacheWrite1h += oneHour;
  tokens.cacheRead += usage.cacheReadInputTokens;
  tokens.output += usage.outputTokens;
  tokens.prompt += usage.inputTokens + fiveMinutes + oneHour + usage.cacheReadInputTokens;
}

function checkCount(where: string, field: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw new UsageInvalidError(where, field, value);
}

function emptyTokens(): CostByKind & { prompt: number } {
  return { uncachedInput: 0, cacheWrite5m: 0, cacheWrite1h: 0, cacheRead: 0, output: 0, prompt: 0 };
}

function addCosts(
  a: CostByKind & { total: number },
  b: CostByKind & { total: number },
): CostByKind & { total: number } {
  return {
    uncachedInput: a.uncachedInput + b.uncachedInput,
    cacheWrite5m: a.cacheWrite5m + b.cacheWrite5m,
    cacheWrite1h: a.cacheWrite1h + b.cacheWrite1h,
    cacheRead: a.cacheRead + b.cacheRead,
    output: a.output + b.output,
    total: a.total + b.total,
  };
}

function priceTokens(tokens: CostByKind, pricing: Omit<ModelPricing, 'longContext'>): CostByKind & { total: number } {
  const input = pricing.inputPerMTok / MILLION;
  const dollars = {
    uncachedInput: tokens.uncachedInput * input,
    cacheWrite5m: tokens.cacheWrite5m * input * pricing.cacheWrite5mMultiplier,
    cacheWrite1h: tokens.cacheWrite1h * input * pricing.cacheWrite1hMultiplier,
    cacheRead: tokens.cacheRead * input * pricing.cacheReadMultiplier,
    output: (tokens.output * pricing.outputPerMTok) / MILLION,
  };
  const total =
    dollars.uncachedInput + dollars.cacheWrite5m + dollars.cacheWrite1h + dollars.cacheRead + dollars.output;
  return { ...dollars, total };
}
