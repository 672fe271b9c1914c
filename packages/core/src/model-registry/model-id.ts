/**
 * How a model name is spelt by providers and gateways, undone step by step:
 * `OpenRouter/anthropic/claude-sonnet-4.5`, `us.anthropic.claude-sonnet-4-5-20250929-v1:0`,
 * `claude-sonnet-4-5@20250929`, `gpt-5-2025-08-07`, `deepseek-chat:free`, `gemini-flash-latest`.
 */

/** Provider prefixes used by LiteLLM, Hermes, opencode and gateways, mapped to the registry's provider names. */
export const PROVIDER_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  gemini: 'google',
  vertex: 'google-vertex',
  vertex_ai: 'google-vertex',
  bedrock: 'amazon-bedrock',
  azure: 'azure-openai-responses',
  mistralai: 'mistral',
  'x-ai': 'xai',
  'z-ai': 'zai',
  moonshot: 'moonshotai',
  'fireworks-ai': 'fireworks',
  fireworks_ai: 'fireworks',
});

/** The key two spellings of one id share: lower case, dots between digits as dashes (`claude-sonnet-4.5` = `claude-sonnet-4-5`). */
export function canonicalModelId(id: string): string {
  return id
    .trim()
    .toLowerCase()
    .replace(/(\d)\.(\d)/g, '$1-$2');
}

const DECORATIONS: readonly RegExp[] = [
  /^((?:[^/]*\/)?)(?:[a-z]{2,4}\.)?anthropic\./, // Bedrock: us.anthropic.claude-…
  /@[^/]*$/, // Vertex: claude-sonnet-4-5@20250929
  /-v\d+(?::\d+)?$/, // Bedrock: -v1:0
  /:(?:free|thinking|beta|extended|exacto|nitro|floor|online)$/, // OpenRouter variants
  /-(?:\d{8}|\d{4}-\d{2}-\d{2})$/, // dated snapshots
  /-latest$/,
];

/** The spellings to try for a query, most specific first (the query itself first). */
export function modelIdCandidates(query: string): string[] {
  const candidates = [query.trim().toLowerCase()];
  let current = candidates[0] ?? '';
  for (const pattern of DECORATIONS) {
    const next = current.replace(pattern, (_match: string, head?: string) => (typeof head === 'string' ? head : ''));
    if (next !== current && next.length > 0) {
      current = next;
      candidates.push(current);
    }
  }
  return candidates;
}

/** `anthropic/claude-x` → `['anthropic', 'claude-x']` when the first segment names a provider (or an alias of one). */
export function splitProviderPrefix(id: string, providers: ReadonlySet<string>): [string, string] | undefined {
  const slash = id.indexOf('/');
  if (slash <= 0) return undefined;
  const head = id.slice(0, slash);
  const provider = PROVIDER_ALIASES[head] ?? head;
  return providers.has(provider) ? [provider, id.slice(slash + 1)] : undefined;
}

/** `claude-sonnet-4-5[1m]` asks for the 1M-token variant. */
export function splitLongContextSuffix(query: string): { id: string; long: boolean } {
  const match = /\[1m\]$/i.exec(query.trim());
  return match === null ? { id: query.trim(), long: false } : { id: query.trim().slice(0, match.index), long: true };
}
