/**
 * Refreshes the vendored model registry (data/model-registry/models.json) from
 * the generated model list of `@mariozechner/pi-ai` (MIT; its generator merges
 * models.dev and OpenRouter data). Only the package tarball is fetched, with
 * `npm pack` (no install, no dependencies); nothing is fetched at run time.
 *
 *   node --import tsx packages/core/scripts/update-model-registry.ts [version]
 *
 * Long-context tiers are not in that data: they live in long-context.json beside
 * the snapshot, kept by hand from the providers' pricing pages.
 *
 * Each model's limits are then cross-checked against the provider SDKs' own
 * tables (`@ai-sdk/anthropic`, LangChain's model profiles; the copies installed
 * in this workspace): where one says otherwise, the entry keeps its value and
 * lists the other in `claims`, with the SDK and its version.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { modelToEncodingMap } from 'gpt-tokenizer/mapping';
import { disagreements, readLimitClaims } from './model-limit-claims.js';

const PACKAGE = '@mariozechner/pi-ai';
const version = process.argv[2] ?? 'latest';
const target = fileURLToPath(new URL('../data/model-registry/models.json', import.meta.url));
const workspace = fileURLToPath(new URL('../../../', import.meta.url));

interface SourceModel {
  id: string;
  name?: string;
  provider: string;
  contextWindow: number;
  maxTokens: number;
  input?: string[];
  reasoning?: boolean;
  cost?: { input: number; output: number; cacheRead?: number; cacheWrite?: number };
}

const folder = mkdtempSync(join(tmpdir(), 'ctxhost-models-'));
try {
  const packed = JSON.parse(
    execFileSync('npm', ['pack', `${PACKAGE}@${version}`, '--json', '--pack-destination', folder], {
      encoding: 'utf8',
    }),
  ) as Array<{ filename: string; version: string }>;
  const tarball = packed[0];
  if (tarball === undefined) throw new Error(`npm pack ${PACKAGE}@${version} returned nothing`);
  execFileSync('tar', ['-xzf', join(folder, tarball.filename), '-C', folder, 'package/dist/models.generated.js']);
  const module = (await import(pathToFileURL(join(folder, 'package/dist/models.generated.js')).href)) as {
    MODELS: Record<string, Record<string, SourceModel>>;
  };
  const entries = Object.values(module.MODELS)
    .flatMap((byId) => Object.values(byId))
    .filter((model) => model.contextWindow > 0)
    .map(toEntry)
    .sort((a, b) => a.provider.localeCompare(b.provider) || a.id.localeCompare(b.id));
  const { claims, sources } = await readLimitClaims(workspace, entries);
  const models = entries.map((entry) => {
    const differing = disagreements(entry, claims.get(`${entry.provider}/${entry.id}`) ?? []);
    return Object.keys(differing).length === 0 ? entry : { ...entry, claims: differing };
  });
  const snapshot = {
    source: {
      package: PACKAGE,
      version: tarball.version,
      file: 'dist/models.generated.js',
      license: 'MIT',
      fetched: new Date().toISOString().slice(0, 10),
      crossChecked: sources,
    },
    models,
  };
  writeFileSync(target, `${JSON.stringify(snapshot, null, 0).replace(/\},\{"provider"/g, '},\n{"provider"')}\n`);
  const providers = new Set(models.map((model) => model.provider));
  const disputed = models.filter((model) => 'claims' in model);
  console.log(
    `wrote ${target}: ${models.length} models, ${providers.size} providers, from ${PACKAGE}@${tarball.version}; ` +
      `${disputed.length} with a limit another source states otherwise (${sources.join(', ')})`,
  );
  for (const model of disputed) console.log(`  ${model.provider}/${model.id}: ${JSON.stringify(model.claims)}`);
} finally {
  rmSync(folder, { recursive: true, force: true });
}

function toEntry(model: SourceModel) {
  const tokenizer = openAIEncoding(model);
  const cost = model.cost;
  const hasPrice = cost !== undefined && (cost.input > 0 || cost.output > 0);
  return {
    provider: model.provider,
    id: model.id,
    ...(model.name === undefined ? {} : { name: model.name }),
    contextWindow: model.contextWindow,
    maxOutputTokens: model.maxTokens,
    ...(hasPrice ? { pricing: prices(cost) } : {}),
    ...(tokenizer === undefined ? {} : { tokenizer }),
  };
}

function prices(cost: NonNullable<SourceModel['cost']>) {
  return {
    input: cost.input,
    output: cost.output,
    ...(cost.cacheRead ? { cacheRead: cost.cacheRead } : {}),
    ...(cost.cacheWrite ? { cacheWrite: cost.cacheWrite } : {}),
  };
}

/** OpenAI's own models (direct, Azure, or through a gateway as `openai/…`): the encoding gpt-tokenizer maps them to. */
function openAIEncoding(model: SourceModel): string | undefined {
  const bare = model.id.replace(/^openai\//, '');
  const isOpenAI = model.id.startsWith('openai/') || /^(gpt-|o\d|chatgpt-|codex-)/.test(bare);
  if (!isOpenAI) return undefined;
  const map = modelToEncodingMap as Record<string, string>;
  const exact = map[bare] ?? map[bare.replace(/:.*$/, '')];
  if (exact !== undefined) return exact;
  if (/^gpt-oss/.test(bare)) return 'o200k_harmony';
  if (/^(gpt-3\.5|gpt-4)(-turbo|-\d{4}|-32k)?$/.test(bare) || /^gpt-4-(turbo|\d)/.test(bare)) return 'cl100k_base';
  return 'o200k_base';
}
