import type { Usage } from '@ctxhost/core';
import { sessionCost, type CostReport } from '@ctxhost/prompt-caching';

/** The cost of one model's requests, or why it could not be priced. */
export type ModelCost = (CostReport & { priced: true }) | { priced: false; model: string; requests: number; reason: string };

/**
 * The one place the command line prices model calls (inspect, replay, the summarizer's
 * calls): each model at its own price. A model with no known price is named with the
 * reason, never guessed.
 */
export function priceRequests(usages: readonly Usage[], model: string): ModelCost {
  try {
    return { ...sessionCost(usages, model), priced: true };
  } catch (error) {
    return { priced: false, model, requests: usages.length, reason: error instanceof Error ? error.message : String(error) };
  }
}

/** Requests grouped by the model that answered them, each priced at that model's price, in first-seen order. */
export function priceByModel(requests: readonly { model: string; usage: Usage }[]): ModelCost[] {
  const byModel = new Map<string, Usage[]>();
  for (const { model, usage } of requests) byModel.set(model, [...(byModel.get(model) ?? []), usage]);
  return [...byModel].map(([model, usages]) => priceRequests(usages, model));
}
