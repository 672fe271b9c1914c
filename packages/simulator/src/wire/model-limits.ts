/**
 * How a model behaves at its window: the error variant it returns, or a
 * successful stop. The first five are for `/v1/messages` (Anthropic's three,
 * `openai_text`: Anthropic's 400 in OpenAI's words, and `stream_error`: the 400's
 * error as an `error` event in a streamed 200, as after the headers were sent); the others
 * are the texts of OpenAI-compatible servers (`/v1/chat/completions`). Each
 * endpoint uses its own default for the other family's styles.
 */
export type OverflowStyle = AnthropicOverflowStyle | ChatOverflowStyle;
export type AnthropicOverflowStyle =
  'prompt_too_long' | 'input_plus_max_tokens' | 'stop_reason' | 'openai_text' | 'stream_error';
export type ChatOverflowStyle = 'openai' | 'openai_completion' | 'openrouter' | 'vllm' | 'deepseek';
export const ANTHROPIC_OVERFLOW_STYLES = [
  'prompt_too_long',
  'input_plus_max_tokens',
  'stop_reason',
  'openai_text',
  'stream_error',
] as const;
export const CHAT_OVERFLOW_STYLES = ['openai', 'openai_completion', 'openrouter', 'vllm', 'deepseek'] as const;

export interface ModelLimits {
  contextLimit?: number;
  overflowStyle?: OverflowStyle;
  /** Below this many prompt tokens a breakpoint caches nothing. */
  minCacheableTokens?: number;
}
