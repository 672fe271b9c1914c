import { CtxhostError } from '@ctxhost/core';

/** Stable codes of `@ctxhost/openai-agents`. */
export const OPENAI_AGENTS_ERROR_CODES = {
  /** The options are wrong (a window that is not a positive whole number, an empty session id). */
  optionsInvalid: 'CTXHOST_OPENAI_AGENTS_OPTIONS_INVALID',
} as const;

export type OpenaiAgentsErrorCode = (typeof OPENAI_AGENTS_ERROR_CODES)[keyof typeof OPENAI_AGENTS_ERROR_CODES];

/** An error of the Agents SDK integration; `isInstance` (from CtxhostError) works across copies. */
export class OpenaiAgentsIntegrationError extends CtxhostError {
  constructor(code: OpenaiAgentsErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, { ...options, plugin: 'openai-agents' });
  }
}
