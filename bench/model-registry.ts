/**
 * The model registry's size and source: models per provider (the providers the
 * issue names first, then the rest summed), and the time of a lookup by a
 * spelling that needs every normalisation step.
 * Run alone: npx tsx --conditions=@ctxhost/source bench/model-registry.ts
 */
import { pathToFileURL } from 'node:url';
import { createModelRegistry } from '@ctxhost/core';

export interface ModelRegistryRow {
  provider: string;
  models: number;
  note: string;
}

const NAMED = [
  'anthropic',
  'openai',
  'google',
  'mistral',
  'deepseek',
  'xai',
  'openrouter',
  'groq',
  'amazon-bedrock',
  'azure-openai-responses',
  'google-vertex',
];

export async function runModelRegistry(): Promise<ModelRegistryRow[]> {
  const started = performance.now();
  const registry = createModelRegistry();
  const built = performance.now() - started;
  const models = registry.list();
  const byProvider = new Map<string, number>();
  for (const model of models) byProvider.set(model.provider, (byProvider.get(model.provider) ?? 0) + 1);
  const rows: ModelRegistryRow[] = NAMED.map((provider) => ({
    provider,
    models: byProvider.get(provider) ?? 0,
    note: '',
  }));
  const others = [...byProvider].filter(([provider]) => !NAMED.includes(provider));
  rows.push({
    provider: `${others.length} others`,
    models: others.reduce((sum, [, count]) => sum + count, 0),
    note: others.map(([provider]) => provider).join(', '),
  });
  const lookups = 10_000;
  const lookupStarted = performance.now();
  // Distinct names, so the registry's per-name cache never answers: every lookup walks all the spellings.
  for (let index = 0; index < lookups; index++) registry.get(`us.anthropic.claude-sonnet-4-5-${20250000 + index}-v1:0`);
  const perLookup = (performance.now() - lookupStarted) / lookups;
  rows.push({
    provider: `all ${byProvider.size} providers`,
    models: models.length,
    note: `${registry.source.package}@${registry.source.version} (${registry.source.license}, taken ${registry.source.fetched}); index built in ${built.toFixed(1)} ms; an uncached lookup through every normalisation ${(perLookup * 1000).toFixed(1)} µs`,
  });
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await runModelRegistry());
}
