import { apiError, type ApiError } from '../wire/api-error.js';
import type { ModelLimits } from '../wire/model-limits.js';

/**
 * The window check, in the model's overflow style: `prompt_too_long` when the
 * prompt alone is over; `input_plus_max_tokens` (older models) when prompt +
 * max_tokens is over; `stop_reason` never errors (the caller answers with
 * `stop_reason: "model_context_window_exceeded"` instead).
 */
export function contextLimitError(
  promptTokens: number,
  maxTokens: number,
  limits: Required<ModelLimits>,
): ApiError | undefined {
  const { contextLimit, overflowStyle } = limits;
  if (overflowStyle === 'stop_reason') return undefined;
  // A Chat Completions style set for every model: /v1/messages answers as Anthropic's default does.
  if (overflowStyle === 'input_plus_max_tokens' && promptTokens + maxTokens > contextLimit) {
    return apiError(
      400,
      `input length and \`max_tokens\` exceed context limit: ${promptTokens} + ${maxTokens} > ${contextLimit}, decrease input length or \`max_tokens\` and try again`,
    );
  }
  if (promptTokens <= contextLimit) return undefined;
  if (overflowStyle === 'openai_text') {
    return apiError(
      400,
      `This model's maximum context length is ${contextLimit} tokens. However, your messages resulted in ${promptTokens} tokens. Please reduce the length of the messages.`,
    );
  }
  return apiError(400, `prompt is too long: ${promptTokens} tokens > ${contextLimit} maximum`);
}

/** True when a `stop_reason`-style model should stop at once with model_context_window_exceeded. */
export function exceedsWindowSilently(promptTokens: number, limits: Required<ModelLimits>): boolean {
  return limits.overflowStyle === 'stop_reason' && promptTokens > limits.contextLimit;
}
