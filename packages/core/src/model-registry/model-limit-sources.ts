import type { ModelInfo } from './model-info.js';

/** One source's value for one of a model's limits: `{ value: 128000, source: '@ai-sdk/anthropic@4.0.105' }`. */
export interface ModelLimitClaim {
  value: number;
  /** The data package and version (`@mariozechner/pi-ai@0.73.1`), an SDK's own table, or `config models:`. */
  source: string;
}

export type ModelLimitName = 'contextWindow' | 'maxOutputTokens';

/**
 * Where a model's two limits came from: the source of the value ctxhost uses
 * first, then every other source that states a different one. Sources
 * disagree (for claude-sonnet-4-6 the models.dev data says 64,000 output
 * tokens, `@ai-sdk/anthropic` sends 128,000 by default).
 */
export type ModelLimitSources = Record<ModelLimitName, ModelLimitClaim[]>;

/**
 * The largest value any source states for the limit: what the real API may
 * accept. ctxhost budgets with `info[limit]`; something that checks a request
 * the way the API would (the simulator) refuses only what exceeds every source.
 */
export function largestStatedLimit(info: ModelInfo, limit: ModelLimitName): number {
  const claims = info.limitSources?.[limit] ?? [];
  return claims.reduce((largest, claim) => Math.max(largest, claim.value), info[limit]);
}
