import { isRecoverableOverflow, normalizeProviderError, type ProviderError } from '@ctxhost/core';
import { ContextOverflowError } from '@langchain/core/errors';

/** LangChain's wrappers around a provider's error: the agent's `MiddlewareError`, the chat models' `ContextOverflowError`. */
function isLangChainWrapper(error: unknown): error is Error & { cause: unknown } {
  if (!(error instanceof Error) || error.cause === undefined) return false;
  return (error as { '~brand'?: unknown })['~brand'] === 'MiddlewareError' || ContextOverflowError.isInstance(error);
}

/** The provider's own error inside LangChain's wrappers (an `APIError` of the Anthropic or OpenAI SDK, with its status). */
export function unwrapProviderError(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 8 && isLangChainWrapper(current); depth++) current = current.cause;
  return current;
}

/**
 * The error as the recovery cascade reads it, when it is an overflow: any
 * provider's wording (core's shared parser, through LangChain's wrappers), or
 * a `ContextOverflowError` that a LangChain integration raised in words the
 * parser does not know. Undefined for every other error.
 */
export function overflowOf(error: unknown): ProviderError | undefined {
  const inner = unwrapProviderError(error);
  if (isRecoverableOverflow(inner)) return normalizeProviderError(inner);
  if (isRecoverableOverflow(error)) return normalizeProviderError(error);
  if (hasContextOverflow(error))
    return { ...normalizeProviderError(inner), kind: 'context_overflow', message: messageOf(error), cause: error };
  return undefined;
}

function hasContextOverflow(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 8 && current !== undefined; depth++) {
    if (ContextOverflowError.isInstance(current)) return true;
    current = current instanceof Error ? current.cause : undefined;
  }
  return false;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
