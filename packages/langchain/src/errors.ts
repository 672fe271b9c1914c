import { CtxhostError } from '@ctxhost/core';

/** Stable codes of `@ctxhost/langchain`. */
export const LANGCHAIN_ERROR_CODES = {
  /** The options are wrong (a window that is not a positive whole number, an empty session id). */
  optionsInvalid: 'CTXHOST_LANGCHAIN_OPTIONS_INVALID',
} as const;

export type LangchainErrorCode = (typeof LANGCHAIN_ERROR_CODES)[keyof typeof LANGCHAIN_ERROR_CODES];

/** An error of the LangChain integration; `isInstance` (from CtxhostError) works across copies. */
export class LangchainIntegrationError extends CtxhostError {
  constructor(code: LangchainErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, { ...options, plugin: 'langchain' });
  }
}
