import { CtxhostError } from '@ctxhost/core';

/** Stable codes of `@ctxhost/opencode`. */
export const OPENCODE_ERROR_CODES = {
  /** A call to opencode's server (toast, revert, summarize, prompt, part update) failed. */
  actionFailed: 'CTXHOST_OPENCODE_ACTION_FAILED',
  /** The host could not be built (config, store). The plugin then runs without ctxhost. */
  startFailed: 'CTXHOST_OPENCODE_START_FAILED',
} as const;

export type OpencodeErrorCode = (typeof OPENCODE_ERROR_CODES)[keyof typeof OPENCODE_ERROR_CODES];

/** An error of the opencode bridge; `isInstance` (from CtxhostError) works across copies of the package. */
export class OpencodeBridgeError extends CtxhostError {
  constructor(code: OpencodeErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, { ...options, plugin: 'opencode-bridge' });
  }
}
