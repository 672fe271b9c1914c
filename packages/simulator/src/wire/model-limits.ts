/** How a model behaves at its window: the error variant it returns, or a successful stop. */
export type OverflowStyle = 'prompt_too_long' | 'input_plus_max_tokens' | 'stop_reason';

export interface ModelLimits {
  contextLimit?: number;
  overflowStyle?: OverflowStyle;
  /** Below this many prompt tokens a breakpoint caches nothing. */
  minCacheableTokens?: number;
}
