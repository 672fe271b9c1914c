import { getModelInfo, type ModelOverride } from '@ctxhost/core';
import type { ModelPricing, PricingTable } from './default-pricing.js';
import { DEFAULT_PRICING } from './default-pricing.js';
import { UnknownModelPricingError } from './errors.js';
import { pricingFromModelInfo } from './pricing-from-model-info.js';
import { normalizeModelName } from './normalize-model-name.js';

export { normalizeModelName };

/**
 * A model's prices: an entry the config gave (`hooks.prompt-caching.pricing`,
 * longest key that prefixes the normalised name), else the model registry's
 * prices (`models`: core's `models:` config section over the registry), else
 * the longest prefix in `table`. Undefined when none knows the model.
 */
export function findModelPricing(
  model: string,
  table: PricingTable = DEFAULT_PRICING,
  models?: Readonly<Record<string, ModelOverride>>,
): ModelPricing | undefined {
  const name = normalizeModelName(model);
  const configured = longestPrefix(name, table, (key) => table[key] !== DEFAULT_PRICING[key]);
  if (configured !== undefined) return configured;
  const info = getModelInfo(model, models);
  const fromRegistry = info === undefined ? undefined : pricingFromModelInfo(info);
  return fromRegistry ?? longestPrefix(name, table, () => true);
}

function longestPrefix(name: string, table: PricingTable, accept: (key: string) => boolean): ModelPricing | undefined {
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    const matches = name === key || name.startsWith(`${key}-`);
    if (matches && accept(key) && (best === undefined || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : table[best];
}

/** Like findModelPricing, but an unknown model is an UnknownModelPricingError naming the config key to add. */
export function requireModelPricing(
  model: string,
  table: PricingTable = DEFAULT_PRICING,
  models?: Readonly<Record<string, ModelOverride>>,
): ModelPricing {
  const pricing = findModelPricing(model, table, models);
  if (pricing === undefined) throw new UnknownModelPricingError(model);
  return pricing;
}
