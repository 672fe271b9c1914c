import { apiError, type ApiError } from '../wire/api-error.js';
import { CHAT_OVERFLOW_STYLES, type ChatOverflowStyle, type ModelLimits } from '../wire/model-limits.js';

/** The chat endpoint's style: the model's own when it is a chat style, else OpenAI's. */
export function chatOverflowStyle(limits: Required<ModelLimits>): ChatOverflowStyle {
  return (CHAT_OVERFLOW_STYLES as readonly string[]).includes(limits.overflowStyle)
    ? (limits.overflowStyle as ChatOverflowStyle)
    : 'openai';
}

/**
 * The window check of `/v1/chat/completions`, in the texts real servers send
 * (the same samples core's `parseTokenLimitError` is tested on): OpenAI (prompt
 * alone, or prompt + completion), DeepSeek (prompt + completion), OpenRouter
 * (prompt + output, "about"), vLLM (prompt alone). All are 400 with code
 * `context_length_exceeded`, as OpenAI sends it.
 */
export function chatContextLimitError(
  promptTokens: number,
  maxTokens: number,
  limits: Required<ModelLimits>,
): ApiError | undefined {
  const max = limits.contextLimit;
  const total = promptTokens + maxTokens;
  const fail = (message: string) => apiError(400, message, { param: 'messages', code: 'context_length_exceeded' });
  switch (chatOverflowStyle(limits)) {
    case 'openai':
      return promptTokens > max
        ? fail(
            `This model's maximum context length is ${max} tokens. However, your messages resulted in ${promptTokens} tokens. Please reduce the length of the messages.`,
          )
        : undefined;
    case 'vllm':
      return promptTokens > max
        ? fail(
            `This model's maximum context length is ${max} tokens. However, your request has ${promptTokens} input tokens. Please reduce the length of the input messages.`,
          )
        : undefined;
    case 'openai_completion':
    case 'deepseek':
      return total > max
        ? fail(
            `This model's maximum context length is ${max} tokens. However, you requested ${total} tokens (${promptTokens} in the messages, ${maxTokens} in the completion). Please reduce the length of the messages or completion.`,
          )
        : undefined;
    case 'openrouter':
      return total > max
        ? fail(
            `This endpoint's maximum context length is ${max} tokens. However, you requested about ${total} tokens (${promptTokens} of text input, ${maxTokens} in the output). Please reduce the length of either one, or use the "middle-out" transform to compress your prompt automatically.`,
          )
        : undefined;
  }
}
