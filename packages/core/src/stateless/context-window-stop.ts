/**
 * A reply that is an overflow in a 200: newer Anthropic models stop with `model_context_window_exceeded`
 * and no content. An integration's `send` throws it so the stateless path recovers it like the error it
 * is (`kind` lets the shared parser read it); when recovery cannot help, the caller gets `result`, the
 * reply as the provider gave it.
 */
export class ContextWindowStop<T> extends Error {
  readonly kind = 'context_overflow';
  constructor(
    readonly result: T,
    readonly currentTokens: number | undefined,
  ) {
    super('the model stopped: model_context_window_exceeded');
    this.name = 'ContextWindowStop';
  }

  static isInstance(value: unknown): value is ContextWindowStop<unknown> {
    return (
      value instanceof ContextWindowStop ||
      (value instanceof Error && value.name === 'ContextWindowStop' && 'result' in value)
    );
  }
}
