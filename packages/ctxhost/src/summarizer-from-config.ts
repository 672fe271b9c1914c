import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { createAnthropicSummarizer } from '@ctxhost/anthropic';
import { CORE_ERROR_CODES, CtxhostError, type CtxhostConfig, type Summarizer } from '@ctxhost/core';
import { createOpenAISummarizer } from '@ctxhost/openai';

/** The conversation's own model: the summarizer falls back to it (`provider: auto`, no `model`). */
export interface MainModel {
  /** `anthropic`, or an OpenAI-compatible provider (`openai`, `openrouter`, `deepseek`, `vllm`…). */
  provider: string;
  model: string;
  /** The main client, reused when the summary goes to the same endpoint with the same key. */
  client?: Anthropic | OpenAI;
}

/** Providers the summarizer reaches through the OpenAI SDK, with their default endpoint and key variable. */
const OPENAI_COMPATIBLE: Readonly<Record<string, { baseUrl?: string; keyEnv: string }>> = {
  openai: { keyEnv: 'OPENAI_API_KEY' },
  openrouter: { baseUrl: 'https://openrouter.ai/api/v1', keyEnv: 'OPENROUTER_API_KEY' },
  deepseek: { baseUrl: 'https://api.deepseek.com', keyEnv: 'DEEPSEEK_API_KEY' },
  custom: { keyEnv: 'OPENAI_API_KEY' },
};

/**
 * The summarizer Hermes's `auxiliary.compression` section describes:
 * `provider` `anthropic`, `openai` (any OpenAI-compatible `base_url`: vLLM,
 * Ollama, LM Studio…), `openrouter`, `deepseek`, or `auto` (the main model's
 * provider); `model` (default the main model); `base_url`; `api_key_env` (the
 * variable holding the key; default the provider's usual one). A cheap summary
 * model on another provider than the conversation's works.
 */
export function summarizerFromConfig(
  config: Pick<CtxhostConfig, 'auxiliary'>,
  main: MainModel,
  env: NodeJS.ProcessEnv = process.env,
): Summarizer {
  const auxiliary = config.auxiliary.compression;
  const provider = auxiliary.provider === 'auto' ? main.provider : auxiliary.provider;
  const model = auxiliary.model ?? main.model;
  const sameEndpoint =
    provider === main.provider && auxiliary.baseUrl === undefined && auxiliary.apiKeyEnv === undefined;
  if (provider === 'anthropic') {
    const client =
      sameEndpoint && main.client instanceof Anthropic
        ? main.client
        : new Anthropic({
            apiKey: key(env, auxiliary.apiKeyEnv ?? 'ANTHROPIC_API_KEY', provider, auxiliary.baseUrl),
            ...(auxiliary.baseUrl === undefined ? {} : { baseURL: auxiliary.baseUrl }),
          });
    return createAnthropicSummarizer(client, { model });
  }
  const known = OPENAI_COMPATIBLE[provider] ?? OPENAI_COMPATIBLE['custom']!;
  const baseURL = auxiliary.baseUrl ?? known.baseUrl;
  const client =
    sameEndpoint && main.client instanceof OpenAI
      ? main.client
      : new OpenAI({
          apiKey: key(env, auxiliary.apiKeyEnv ?? known.keyEnv, provider, auxiliary.baseUrl),
          ...(baseURL === undefined ? {} : { baseURL }),
        });
  return createOpenAISummarizer(client, { model });
}

/** A local endpoint (a `base_url` on this machine or network) needs no key; a provider's own does. */
function key(env: NodeJS.ProcessEnv, variable: string, provider: string, baseUrl: string | undefined): string {
  const value = env[variable];
  if (value !== undefined && value.length > 0) return value;
  if (baseUrl !== undefined) return 'unused';
  throw new CtxhostError(
    CORE_ERROR_CODES.configInvalid,
    `config auxiliary.compression: the summary provider "${provider}" needs an API key in $${variable}; set it, name another variable with auxiliary.compression.api_key_env, or give a base_url`,
  );
}
