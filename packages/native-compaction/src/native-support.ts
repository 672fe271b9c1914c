/** Claude models, by name: `claude-…`, `anthropic/claude-…`, Bedrock's `anthropic.claude-…`. */
export function isClaudeModel(model: string): boolean {
  return /(^|[/.:])claude[-_.]/i.test(model) || /^claude/i.test(model);
}

/** OpenAI's own models (`gpt-…`, `o3`, `codex-…`), with or without an `openai/` prefix. */
export function isOpenAIModel(model: string): boolean {
  return /^(openai\/)?(gpt-|o\d|codex|chatgpt-)/i.test(model);
}

/** Which vendor's native mechanisms a request can use, or why none. */
export type NativeTarget = { vendor: 'anthropic' | 'openai' } | { vendor: undefined; reason: string };

/**
 * The vendor whose own context management a request can use: Anthropic's for
 * Claude models sent to Anthropic's API, OpenAI's for OpenAI models sent to
 * OpenAI's (or Azure's) API. Gateways and other providers do not pass these
 * fields on (OpenRouter drops `context_management` where it translates the
 * request), so the client engine keeps the context there. With no provider
 * named, it is read from the model's name; a `vendor/model` name is a gateway's.
 */
export function nativeTarget(model: string, provider: string | undefined): NativeTarget {
  if (provider === undefined && model.includes('/'))
    return {
      vendor: undefined,
      reason: `${model}: a gateway's model name (say the provider to use native compaction)`,
    };
  const name = (provider ?? (isClaudeModel(model) ? 'anthropic' : isOpenAIModel(model) ? 'openai' : '')).toLowerCase();
  if (name === 'anthropic')
    return isClaudeModel(model)
      ? { vendor: 'anthropic' }
      : { vendor: undefined, reason: `${model} on anthropic is not a Claude model` };
  if (name === 'openai' || name === 'azure')
    return isOpenAIModel(model)
      ? { vendor: 'openai' }
      : { vendor: undefined, reason: `${model} on ${name} is not an OpenAI model` };
  return {
    vendor: undefined,
    reason: `${model} on ${name === '' ? 'an unknown provider' : name}: only Anthropic's and OpenAI's own APIs compact natively`,
  };
}
