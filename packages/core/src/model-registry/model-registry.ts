import type { LongContextTier, ModelInfo, ModelOverride } from './model-info.js';
import type { ModelLimitClaim, ModelLimitSources } from './model-limit-sources.js';
import { canonicalModelId, modelIdCandidates, splitLongContextSuffix, splitProviderPrefix } from './model-id.js';
import { loadModelSnapshot, type ModelSnapshot, type SnapshotModel, type SnapshotVariant } from './model-snapshot.js';

/** Looks models up by any spelling; `models:` overrides from the config win field by field. */
export interface ModelRegistry {
  get(id: string): ModelInfo | undefined;
  /** Every model of the data (not the overrides), for listing and measuring. */
  list(): readonly ModelInfo[];
  readonly providers: readonly string[];
  readonly source: ModelSnapshot['source'];
}

/** Bare ids resolve to the model's own provider first, gateways and resellers last. */
const PROVIDER_PRIORITY = [
  'anthropic',
  'openai',
  'google',
  'mistral',
  'deepseek',
  'xai',
  'moonshotai',
  'zai',
  'groq',
  'cerebras',
];
const GATEWAYS = new Set([
  'openrouter',
  'vercel-ai-gateway',
  'cloudflare-ai-gateway',
  'github-copilot',
  'opencode',
  'opencode-go',
  'openai-codex',
  'azure-openai-responses',
  'amazon-bedrock',
  'google-vertex',
  'google-vertex-anthropic',
]);

function rank(provider: string): number {
  const index = PROVIDER_PRIORITY.indexOf(provider);
  if (index >= 0) return index;
  return GATEWAYS.has(provider) ? 200 : 100;
}

interface Index {
  byProvider: Map<string, SnapshotModel>;
  byId: Map<string, SnapshotModel>;
  /** Ids without their date or `-latest` (`claude-3-7-sonnet` → `claude-3-7-sonnet-20250219`), the newest first. */
  byUndated: Map<string, SnapshotModel>;
  providers: Set<string>;
  variants: Map<string, SnapshotVariant>;
}

function buildIndex(snapshot: ModelSnapshot): Index {
  const byProvider = new Map<string, SnapshotModel>();
  const byId = new Map<string, SnapshotModel>();
  const providers = new Set<string>();
  const sorted = [...snapshot.models].sort((a, b) => rank(a.provider) - rank(b.provider));
  for (const model of sorted) {
    providers.add(model.provider);
    const key = canonicalModelId(model.id);
    if (!byProvider.has(`${model.provider}/${key}`)) byProvider.set(`${model.provider}/${key}`, model);
    if (!byId.has(key)) byId.set(key, model);
  }
  const byUndated = new Map<string, SnapshotModel>();
  const newestFirst = [...sorted].sort((a, b) => rank(a.provider) - rank(b.provider) || b.id.localeCompare(a.id));
  for (const model of newestFirst) {
    for (const candidate of modelIdCandidates(model.id).slice(1)) {
      const key = canonicalModelId(candidate);
      if (!byId.has(key) && !byUndated.has(key)) byUndated.set(key, model);
    }
  }
  const variants = new Map<string, SnapshotVariant>();
  for (const variant of snapshot.variants) for (const id of variant.ids) variants.set(canonicalModelId(id), variant);
  return { byProvider, byId, byUndated, providers, variants };
}

function find(index: Index, query: string): SnapshotModel | undefined {
  for (const candidate of modelIdCandidates(query)) {
    const prefixed = splitProviderPrefix(candidate, index.providers);
    if (prefixed !== undefined) {
      const [provider, rest] = prefixed;
      const native = index.byProvider.get(`${provider}/${canonicalModelId(rest)}`) ?? findUnder(index, provider, rest);
      if (native !== undefined) return native;
    }
    const bare = index.byId.get(canonicalModelId(candidate));
    if (bare !== undefined) return bare;
    if (prefixed !== undefined) {
      const rest = find(index, prefixed[1]);
      if (rest !== undefined) return rest;
    }
  }
  for (const candidate of modelIdCandidates(query)) {
    const undated = index.byUndated.get(canonicalModelId(candidate));
    if (undated !== undefined) return undated;
  }
  return undefined;
}

/** `openrouter/anthropic/claude-sonnet-4-5-20250929`: the gateway's own id, undecorated. */
function findUnder(index: Index, provider: string, rest: string): SnapshotModel | undefined {
  for (const candidate of modelIdCandidates(rest).slice(1)) {
    const model = index.byProvider.get(`${provider}/${canonicalModelId(candidate)}`);
    if (model !== undefined) return model;
  }
  return undefined;
}

function variantOf(index: Index, model: SnapshotModel): SnapshotVariant | undefined {
  const bareId = model.id.replace(/^[^/]*\//, '');
  for (const candidate of modelIdCandidates(bareId)) {
    const variant = index.variants.get(canonicalModelId(candidate));
    if (variant !== undefined) return variant;
  }
  return undefined;
}

/** The snapshot's source, then each other source that states a different value. */
function limitSources(
  model: SnapshotModel,
  source: string,
  contextWindow: number,
  fromVariant: boolean,
): ModelLimitSources {
  return {
    contextWindow: [
      { value: contextWindow, source: fromVariant ? 'long-context.json (Anthropic and Google pricing pages)' : source },
      ...(model.claims?.contextWindow ?? []).filter((claim) => claim.value !== contextWindow),
    ],
    maxOutputTokens: [{ value: model.maxOutputTokens, source }, ...(model.claims?.maxOutputTokens ?? [])],
  };
}

function toInfo(model: SnapshotModel, variant: SnapshotVariant | undefined, long: boolean, source: string): ModelInfo {
  const tier: LongContextTier | undefined =
    variant === undefined
      ? undefined
      : {
          aboveTokens: variant.aboveTokens,
          pricing: variant.pricing,
          ...(variant.contextWindow === undefined ? {} : { contextWindow: variant.contextWindow }),
          ...(variant.beta === undefined ? {} : { beta: variant.beta }),
        };
  const variantWindow = long ? tier?.contextWindow : undefined;
  const contextWindow = variantWindow ?? model.contextWindow;
  return {
    id: model.id,
    provider: model.provider,
    ...(model.name === undefined ? {} : { name: model.name }),
    contextWindow,
    maxOutputTokens: model.maxOutputTokens,
    ...(model.pricing === undefined ? {} : { pricing: model.pricing }),
    ...(model.tokenizer === undefined ? {} : { tokenizer: model.tokenizer }),
    ...(tier === undefined ? {} : { longContext: tier }),
    limitSources: limitSources(model, source, contextWindow, variantWindow !== undefined),
  };
}

/** A config value goes first; what the data said stays listed after it. */
function withConfigClaim(claims: ModelLimitClaim[] | undefined, value: number | undefined): ModelLimitClaim[] {
  if (value === undefined) return claims ?? [];
  return [{ value, source: CONFIG_SOURCE }, ...(claims ?? [])];
}

const CONFIG_SOURCE = 'config models:';

function applyOverride(base: ModelInfo | undefined, id: string, override: ModelOverride): ModelInfo | undefined {
  const contextWindow = override.contextWindow ?? base?.contextWindow;
  if (contextWindow === undefined) return base;
  const merged: ModelInfo = {
    ...(base ?? { id, provider: override.provider ?? 'custom', maxOutputTokens: override.maxOutputTokens ?? 4096 }),
    contextWindow,
  };
  if (override.provider !== undefined) merged.provider = override.provider;
  if (override.maxOutputTokens !== undefined) merged.maxOutputTokens = override.maxOutputTokens;
  if (override.pricing !== undefined) merged.pricing = override.pricing;
  if (override.tokenizer !== undefined) merged.tokenizer = override.tokenizer;
  merged.limitSources = {
    contextWindow: withConfigClaim(base?.limitSources?.contextWindow, override.contextWindow),
    maxOutputTokens:
      base === undefined && override.maxOutputTokens === undefined
        ? [{ value: merged.maxOutputTokens, source: 'ctxhost default (the config gives no max_output_tokens)' }]
        : withConfigClaim(base?.limitSources?.maxOutputTokens, override.maxOutputTokens),
  };
  return merged;
}

export interface CreateModelRegistryOptions {
  /** The config's `models:` section: keys are model names in any spelling. */
  overrides?: Readonly<Record<string, ModelOverride>>;
  /** Other data than the vendored snapshot (tests). */
  snapshot?: ModelSnapshot;
}

/** A registry over the vendored snapshot (or `options.snapshot`) with the config's overrides on top. */
export function createModelRegistry(options: CreateModelRegistryOptions = {}): ModelRegistry {
  const snapshot = options.snapshot ?? loadModelSnapshot();
  const index = buildIndex(snapshot);
  const source = `${snapshot.source.package}@${snapshot.source.version}`;
  const overrides = Object.entries(options.overrides ?? {});
  const cache = new Map<string, ModelInfo | undefined>();

  function lookup(query: string): ModelInfo | undefined {
    const { id, long } = splitLongContextSuffix(query);
    const model = find(index, id);
    const base = model === undefined ? undefined : toInfo(model, variantOf(index, model), long, source);
    const override = overrideFor(id, model);
    return override === undefined ? base : applyOverride(base, id, override);
  }

  function overrideFor(id: string, model: SnapshotModel | undefined): ModelOverride | undefined {
    if (overrides.length === 0) return undefined;
    const spellings = new Set(modelIdCandidates(id).map(canonicalModelId));
    for (const [key, override] of overrides) {
      if (spellings.has(canonicalModelId(key))) return override;
      if (model !== undefined && find(index, splitLongContextSuffix(key).id) === model) return override;
    }
    return undefined;
  }

  return {
    get(id) {
      if (!cache.has(id)) cache.set(id, lookup(id));
      return cache.get(id);
    },
    list: () => snapshot.models.map((model) => toInfo(model, variantOf(index, model), false, source)),
    providers: [...index.providers].sort(),
    source: snapshot.source,
  };
}

let shared: ModelRegistry | undefined;

/** The registry over the vendored data alone, built once. */
export function defaultModelRegistry(): ModelRegistry {
  shared ??= createModelRegistry();
  return shared;
}

/**
 * What ctxhost knows about a model, by any spelling: dated ids
 * (`claude-sonnet-4-5-20250929`), provider and gateway prefixes
 * (`anthropic/…`, `openrouter/…`), Bedrock and Vertex forms, `[1m]` for a
 * long-context variant. `overrides` is the config's `models:` section.
 * Undefined for a model neither knows: not an error.
 */
export function getModelInfo(id: string, overrides?: Readonly<Record<string, ModelOverride>>): ModelInfo | undefined {
  if (overrides === undefined || Object.keys(overrides).length === 0) return defaultModelRegistry().get(id);
  return registryFor(overrides).get(id);
}

const withOverrides = new WeakMap<object, ModelRegistry>();

function registryFor(overrides: Readonly<Record<string, ModelOverride>>): ModelRegistry {
  let registry = withOverrides.get(overrides);
  if (registry === undefined) {
    registry = createModelRegistry({ overrides, snapshot: loadModelSnapshot() });
    withOverrides.set(overrides, registry);
  }
  return registry;
}
