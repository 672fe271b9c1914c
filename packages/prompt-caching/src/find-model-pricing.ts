import type { ModelPricing, PricingTable } from './default-pricing.js';
import { DEFAULT_PRICING } from './default-pricing.js';
import { UnknownModelPricingError } from './errors.js';

/**
 * The pricing key of a model name as providers spell it: lower case, without
 * a gateway prefix (`anthropic/`), a Bedrock region and vendor (`us.anthropic.`),
 * a Vertex version (`@20250929`) or a Bedrock suffix (`-v1:0`), with dots
 * between digits as dashes (`claude-sonnet-4.5` → `claude-sonnet-4-5`).
 */
export function normalizeModelName(model: string): string {
  return model
    .toLowerCase()
    .replace(/^.*\//, '')
    .replace(/^(?:[a-z]{2,4}\.)?anthropic\./, '')
    .replace(/@.*$/, '')
    .replace(/-v\d+(?::\d+)?$/, '')
    .replace(/(\d)\.(\d)/g, '$1-$2');
}

/** The entry whose key is the longest prefix of the normalised model name, or undefined. */
export function findModelPricing(model: string, table: PricingTable = DEFAULT_PRICING): ModelPricing | undefined {
  const name = normalizeModelName(model);
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    const matches = name === key || name.startsWith(`${key}-`);
    if (matches && (best === undefined || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : table[best];
}

/** Like findModelPricing, but an unknown model is an UnknownModelPricingError naming the config key to add. */
export function requireModelPricing(model: string, table: PricingTable = DEFAULT_PRICING): ModelPricing {
  const pricing = findModelPricing(model, table);
  if (pricing === undefined) throw new UnknownModelPricingError(model, Object.keys(table));
  return pricing;
}
