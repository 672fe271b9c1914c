/**
 * What the provider SDKs themselves say about a model's limits, to cross-check
 * the snapshot with. Each SDK carries its own table, and they disagree with the
 * models.dev data behind the snapshot: `@ai-sdk/anthropic` sends
 * `max_tokens: 128000` for claude-sonnet-4-6 where the snapshot says 64,000.
 *
 * Read from the copies installed in this workspace (the integrations' dev
 * dependencies), so the claims are those of the SDK versions ctxhost is tested
 * with; the versions are recorded beside each claim.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** One source's value for one limit of one model. */
export interface LimitClaim {
  value: number;
  source: string;
}

export type LimitName = 'contextWindow' | 'maxOutputTokens';

/** Claims by `provider/id`: what each SDK says for the models of its provider. */
export type ClaimTable = Map<string, Partial<Record<LimitName, LimitClaim>>[]>;

interface Capabilities {
  maxOutputTokens: number;
  isKnownModel: boolean;
}

interface Profile {
  maxInputTokens?: number;
  maxOutputTokens?: number;
}

/** The folder of an installed package, found from the workspace package that depends on it. */
function packageFolder(from: string, name: string): string {
  const require = createRequire(join(from, 'package.json'));
  let folder = dirname(require.resolve(name));
  while (!folder.endsWith(join('node_modules', ...name.split('/')))) folder = dirname(folder);
  return folder;
}

function versionOf(folder: string, name: string): string {
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version: string };
  return `${name}@${manifest.version}`;
}

/** `@ai-sdk/anthropic`'s rules (its `internal` entry's `getModelCapabilities`): the `max_tokens` it sends by default. */
async function aiSdkAnthropic(
  workspace: string,
): Promise<{ source: string; claim: (id: string) => number | undefined }> {
  const name = '@ai-sdk/anthropic';
  const folder = packageFolder(join(workspace, 'packages/ai-sdk'), name);
  const internal = (await import(pathToFileURL(join(folder, 'dist/internal/index.js')).href)) as {
    getModelCapabilities: (id: string) => Capabilities;
  };
  return {
    source: versionOf(folder, name),
    claim: (id) => {
      const capabilities = internal.getModelCapabilities(id);
      return capabilities.isKnownModel ? capabilities.maxOutputTokens : undefined;
    },
  };
}

/** LangChain's model profiles (generated from models.dev by LangChain, shipped in each provider package). */
async function langChainProfiles(
  workspace: string,
  name: string,
  file: string,
): Promise<{ source: string; profiles: Record<string, Profile> }> {
  const folder = packageFolder(join(workspace, 'packages/langchain'), name);
  const module = (await import(pathToFileURL(join(folder, file)).href)) as { default: Record<string, Profile> };
  return { source: versionOf(folder, name), profiles: module.default };
}

/**
 * Every SDK claim for the given models, by `provider/id`. Only the models of
 * each SDK's own provider are asked about, and only where the SDK knows the
 * model (the AI SDK's fallback for an unknown model is not a fact about it).
 */
export async function readLimitClaims(
  workspace: string,
  models: readonly { provider: string; id: string }[],
): Promise<{ claims: ClaimTable; sources: string[] }> {
  const anthropic = await aiSdkAnthropic(workspace);
  const langChainAnthropic = await langChainProfiles(workspace, '@langchain/anthropic', 'dist/profiles.js');
  const langChainOpenAI = await langChainProfiles(workspace, '@langchain/openai', 'dist/chat_models/profiles.js');
  const claims: ClaimTable = new Map();
  const add = (key: string, claim: Partial<Record<LimitName, LimitClaim>>) => {
    if (Object.keys(claim).length > 0) claims.set(key, [...(claims.get(key) ?? []), claim]);
  };
  for (const model of models) {
    const key = `${model.provider}/${model.id}`;
    if (model.provider === 'anthropic') {
      const maxOutputTokens = anthropic.claim(model.id);
      if (maxOutputTokens !== undefined)
        add(key, { maxOutputTokens: { value: maxOutputTokens, source: anthropic.source } });
      add(key, profileClaim(langChainAnthropic, model.id));
    }
    if (model.provider === 'openai') add(key, profileClaim(langChainOpenAI, model.id));
  }
  return { claims, sources: [anthropic.source, langChainAnthropic.source, langChainOpenAI.source] };
}

function profileClaim(
  table: { source: string; profiles: Record<string, Profile> },
  id: string,
): Partial<Record<LimitName, LimitClaim>> {
  const profile = Object.hasOwn(table.profiles, id) ? table.profiles[id] : undefined;
  if (profile === undefined) return {};
  return {
    ...(profile.maxInputTokens === undefined
      ? {}
      : { contextWindow: { value: profile.maxInputTokens, source: table.source } }),
    ...(profile.maxOutputTokens === undefined
      ? {}
      : { maxOutputTokens: { value: profile.maxOutputTokens, source: table.source } }),
  };
}

/**
 * The claims that differ from the snapshot's value, one per source and limit:
 * what goes into the snapshot entry's `claims`, so the registry can say where
 * each value came from and what else is said.
 */
export function disagreements(
  entry: Record<LimitName, number>,
  claims: readonly Partial<Record<LimitName, LimitClaim>>[],
): Partial<Record<LimitName, LimitClaim[]>> {
  const result: Partial<Record<LimitName, LimitClaim[]>> = {};
  for (const limit of ['contextWindow', 'maxOutputTokens'] as const) {
    const differing = claims.flatMap((claim) => {
      const value = claim[limit];
      return value !== undefined && value.value !== entry[limit] ? [value] : [];
    });
    if (differing.length > 0) result[limit] = differing;
  }
  return result;
}
