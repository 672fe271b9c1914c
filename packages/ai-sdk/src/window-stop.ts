import type { AiGenerateResult } from './ai-sdk-types.js';

/**
 * A reply that is an overflow in a 200: newer Anthropic models stop with
 * `model_context_window_exceeded` and no content (the AI SDK reports finish
 * reason `length`, raw `model_context_window_exceeded`). Thrown inside the
 * middleware so the recovery treats it as the overflow it is; `kind` lets the
 * shared parser read it. When the recovery cannot help, the caller gets the
 * reply as the provider gave it.
 */
export class WindowStop extends Error {
  readonly kind = 'context_overflow';
  readonly currentTokens: number | undefined;
  constructor(readonly result: AiGenerateResult) {
    super('the model stopped: model_context_window_exceeded');
    this.name = 'WindowStop';
    this.currentTokens = result.usage.inputTokens.total;
  }
}

export function throwOnWindowStop(result: AiGenerateResult): AiGenerateResult {
  if (
    result.finishReason.raw === 'model_context_window_exceeded' &&
    result.content.every((part) => part.type !== 'text' || part.text === '')
  )
    throw new WindowStop(result);
  return result;
}
