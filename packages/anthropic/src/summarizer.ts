import Anthropic from '@anthropic-ai/sdk';
import {
  CORE_ERROR_CODES,
  CtxhostError,
  getModelInfo,
  renderTranscript,
  type CtxhostConfig,
  type Summarizer,
} from '@ctxhost/core';

export { renderTranscript };

export interface AnthropicSummarizerOptions {
  model: string;
  /** The summary model's window: larger spans are chunked by the caller. Default: the model registry's window for `model`, so chunking is on whenever the window is known. */
  maxInputTokens?: number;
}

/** The summarizer contract over the SDK: the instructions as the system prompt, the span as a transcript. */
export function createAnthropicSummarizer(client: Anthropic, options: AnthropicSummarizerOptions): Summarizer {
  const maxInputTokens = options.maxInputTokens ?? getModelInfo(options.model)?.contextWindow;
  return {
    name: `anthropic:${options.model}`,
    ...(maxInputTokens === undefined ? {} : { maxInputTokens }),
    async summarize(request) {
      const previous =
        request.previousSummary === undefined ? '' : `Previous summary (update it):\n${request.previousSummary}\n\n`;
      const reply = await client.messages.create(
        {
          model: options.model,
          max_tokens: Math.max(256, Math.floor(request.maxOutputTokens)),
          system: request.instructions,
          messages: [
            {
              role: 'user',
              content: `${previous}Conversation turns to summarize:\n\n${renderTranscript(request.messages)}`,
            },
          ],
        },
        request.signal === undefined ? {} : { signal: request.signal },
      );
      return reply.content
        .map((block) => (block.type === 'text' ? block.text : ''))
        .join('')
        .trim();
    },
  };
}

/**
 * The Anthropic summarizer `auxiliary.compression` selects: its `model`, `base_url`
 * and `api_key_env` when set; otherwise the conversation's own client and model.
 * Another provider (`openai`, `openrouter`…) needs the OpenAI SDK: use
 * `summarizerFromConfig` from `ctxhost`, which serves every provider.
 */
export function summarizerFromConfig(
  config: CtxhostConfig,
  main: { client: Anthropic; model: string },
  env: NodeJS.ProcessEnv = process.env,
): Summarizer {
  const auxiliary = config.auxiliary.compression;
  if (auxiliary.provider !== 'auto' && auxiliary.provider !== 'anthropic') {
    throw new CtxhostError(
      CORE_ERROR_CODES.configInvalid,
      `config auxiliary.compression.provider: "${auxiliary.provider}" is not Anthropic; use summarizerFromConfig from the ctxhost package, which builds an OpenAI-compatible summarizer`,
    );
  }
  const own = auxiliary.baseUrl === undefined && auxiliary.apiKeyEnv === undefined;
  const client = own
    ? main.client
    : new Anthropic({
        apiKey: env[auxiliary.apiKeyEnv ?? 'ANTHROPIC_API_KEY'] ?? 'unused',
        ...(auxiliary.baseUrl === undefined ? {} : { baseURL: auxiliary.baseUrl }),
      });
  const model = auxiliary.model ?? main.model;
  // The summary model's window: the config's own window when it summarizes with the main model, else the registry's (with the config's `models:`).
  const window =
    auxiliary.model === undefined && config.model.contextLength !== undefined
      ? config.model.contextLength
      : getModelInfo(model, config.models)?.contextWindow;
  return createAnthropicSummarizer(client, { model, ...(window === undefined ? {} : { maxInputTokens: window }) });
}
