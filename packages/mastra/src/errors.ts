import { CtxhostError } from '@ctxhost/core';

/** Stable codes of `@ctxhost/mastra`. */
export const MASTRA_ERROR_CODES = {
  /** The options are wrong (a window that is not a positive whole number, an empty session id). */
  optionsInvalid: 'CTXHOST_MASTRA_OPTIONS_INVALID',
} as const;

export type MastraErrorCode = (typeof MASTRA_ERROR_CODES)[keyof typeof MASTRA_ERROR_CODES];

/** An error of the Mastra integration; `isInstance` (from CtxhostError) works across copies. */
export class MastraIntegrationError extends CtxhostError {
  constructor(code: MastraErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, { ...options, plugin: 'mastra' });
  }
}
