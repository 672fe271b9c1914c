import { readFileSync } from 'node:fs';
import type { ModelPrices } from './model-info.js';
import type { ModelLimitClaim, ModelLimitName } from './model-limit-sources.js';

/** One model of the vendored snapshot (`data/model-registry/models.json`). */
export interface SnapshotModel {
  provider: string;
  id: string;
  name?: string;
  contextWindow: number;
  maxOutputTokens: number;
  pricing?: ModelPrices;
  tokenizer?: string;
  /** Other sources (the provider SDKs' own tables) that state a different limit than this entry's. */
  claims?: Partial<Record<ModelLimitName, ModelLimitClaim[]>>;
}

export interface SnapshotSource {
  package: string;
  version: string;
  fetched: string;
  license: string;
  /** The SDK tables the limits were compared with (`@ai-sdk/anthropic@4.0.105`, …). */
  crossChecked?: string[];
}

/** A long-context variant from `data/model-registry/long-context.json`. */
export interface SnapshotVariant {
  ids: string[];
  contextWindow?: number;
  aboveTokens: number;
  beta?: string;
  pricing: ModelPrices;
}

export interface ModelSnapshot {
  source: SnapshotSource;
  models: SnapshotModel[];
  variants: SnapshotVariant[];
}

let loaded: ModelSnapshot | undefined;

/**
 * The vendored data, read once on first use. It sits in `data/` beside `src/`
 * and `dist/` (same depth), so the path works from either; nothing is fetched.
 */
export function loadModelSnapshot(): ModelSnapshot {
  if (loaded !== undefined) return loaded;
  const models = readJson<{ source: SnapshotSource; models: SnapshotModel[] }>('models.json');
  const longContext = readJson<{ variants: SnapshotVariant[] }>('long-context.json');
  loaded = { source: models.source, models: models.models, variants: longContext.variants };
  return loaded;
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(new URL(`../../data/model-registry/${file}`, import.meta.url), 'utf8')) as T;
}
