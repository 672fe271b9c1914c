import { getModelInfo, promptTokens, type ModelOverride, type ModelPrices, type Usage } from '@ctxhost/core';
import {
  normalizeModelName,
  sessionCost,
  STANDARD_CACHE_MULTIPLIERS,
  type CostReport,
  type PricingTable,
} from '@ctxhost/prompt-caching';

/** The cost of one model's requests, or why it could not be priced (its tokens are counted either way). */
export type ModelCost =
  | (CostReport & { priced: true })
  | { priced: false; model: string; requests: number; reason: string; tokens: CostReport['tokens'] };

/** The config's `models:` section (camelCase): registry entries overridden or added. */
export type ModelOverrides = Readonly<Record<string, ModelOverride>>;

/**
 * The one place the command line prices model calls (inspect, replay, the summarizer's
 * calls): each model at its own price from core's model registry (`getModelInfo`, with
 * the config's `models:` overrides), a request above a long-context tier's size at the
 * tier's price. A model the registry does not price is named with the reason, never guessed.
 */
export function priceRequests(usages: readonly Usage[], model: string, overrides?: ModelOverrides): ModelCost {
  const info = getModelInfo(model, overrides);
  if (info?.pricing === undefined) {
    const reason = `${model} ${info === undefined ? 'is not in the model registry' : 'has no price in the model registry'}; add its prices under models: in the config`;
    const { tokens } = sessionCost(usages, model, { pricing: table(model, { input: 0, output: 0 }) });
    return { priced: false, model, requests: usages.length, reason, tokens };
  }
  const tier = info.longContext;
  const long = tier === undefined ? [] : usages.filter((usage) => promptTokens(usage) > tier.aboveTokens);
  const base = tier === undefined ? usages : usages.filter((usage) => promptTokens(usage) <= tier.aboveTokens);
  const reports = [
    sessionCost(base, model, { pricing: table(model, info.pricing) }),
    ...(long.length > 0 && tier !== undefined
      ? [sessionCost(long, model, { pricing: table(model, tier.pricing) })]
      : []),
  ];
  return { ...mergeReports(model, reports), priced: true };
}

/** Requests grouped by the model that answered them, each priced at that model's price, in first-seen order. */
export function priceByModel(
  requests: readonly { model: string; usage: Usage }[],
  overrides?: ModelOverrides,
): ModelCost[] {
  const byModel = new Map<string, Usage[]>();
  for (const { model, usage } of requests) byModel.set(model, [...(byModel.get(model) ?? []), usage]);
  return [...byModel].map(([model, usages]) => priceRequests(usages, model, overrides));
}

/** The registry's prices as prompt-caching's table: a cache price the registry leaves out is billed as input. */
function table(model: string, prices: ModelPrices): PricingTable {
  return {
    [normalizeModelName(model)]: {
      inputPerMTok: prices.input,
      outputPerMTok: prices.output,
      cacheWrite5mMultiplier: prices.cacheWrite === undefined ? 1 : prices.cacheWrite / prices.input,
      cacheWrite1hMultiplier: STANDARD_CACHE_MULTIPLIERS.cacheWrite1hMultiplier,
      cacheReadMultiplier: prices.cacheRead === undefined ? 1 : prices.cacheRead / prices.input,
      minCacheableTokens: 0,
    },
  };
}

function mergeReports(model: string, reports: readonly CostReport[]): CostReport {
  const tokens = { uncachedInput: 0, cacheWrite5m: 0, cacheWrite1h: 0, cacheRead: 0, output: 0, prompt: 0 };
  const dollars = { uncachedInput: 0, cacheWrite5m: 0, cacheWrite1h: 0, cacheRead: 0, output: 0, total: 0 };
  let withoutCaching = 0;
  let requests = 0;
  for (const report of reports) {
    for (const key of Object.keys(tokens) as (keyof typeof tokens)[]) tokens[key] += report.tokens[key];
    for (const key of Object.keys(dollars) as (keyof typeof dollars)[]) dollars[key] += report.dollars[key];
    withoutCaching += report.withoutCaching;
    requests += report.requests;
  }
  return {
    model,
    requests,
    tokens,
    dollars,
    withoutCaching,
    dollarsSaved: withoutCaching - dollars.total,
    cacheHitRatio: tokens.prompt === 0 ? 0 : tokens.cacheRead / tokens.prompt,
  };
}
