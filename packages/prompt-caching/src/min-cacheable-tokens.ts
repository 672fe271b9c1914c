/**
 * The shortest prompt a provider caches, by model-name prefix (longest match
 * wins). Not in the registry's data: Anthropic publishes it per model (prompt
 * caching guide); OpenAI and Gemini cache from 1,024 tokens.
 */
const ANTHROPIC_MINIMUMS: ReadonlyArray<readonly [string, number]> = [
  ['claude-opus-4-7', 4096],
  ['claude-opus-4-6', 4096],
  ['claude-opus-4-5', 4096],
  ['claude-haiku-4-5', 4096],
  ['claude-sonnet-4-6', 2048],
  ['claude-3-5-haiku', 2048],
  ['claude-3-haiku', 2048],
];

export const DEFAULT_MIN_CACHEABLE_TOKENS = 1024;

/** The minimum cacheable prompt for a normalised model name (`claude-haiku-4-5-20251001`). */
export function minCacheableTokens(normalizedModel: string): number {
  let best: readonly [string, number] | undefined;
  for (const entry of ANTHROPIC_MINIMUMS) {
    const [prefix] = entry;
    const matches = normalizedModel === prefix || normalizedModel.startsWith(`${prefix}-`);
    if (matches && (best === undefined || prefix.length > best[0].length)) best = entry;
  }
  return best?.[1] ?? DEFAULT_MIN_CACHEABLE_TOKENS;
}
