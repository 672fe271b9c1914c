import { CtxhostError } from '@ctxhost/core';

/** Stable codes of `@ctxhost/ai-sdk`. */
export const AI_SDK_ERROR_CODES = {
  /** `providerOptions.ctxhost.sessionId` (or the `sessionId` option) is not a non-empty string. */
  sessionIdInvalid: 'CTXHOST_AI_SDK_SESSION_ID_INVALID',
  /** The middleware's options are wrong (a window that is not a positive whole number, …). */
  optionsInvalid: 'CTXHOST_AI_SDK_OPTIONS_INVALID',
} as const;

export type AiSdkErrorCode = (typeof AI_SDK_ERROR_CODES)[keyof typeof AI_SDK_ERROR_CODES];

/** An error of the AI SDK middleware; `isInstance` (from CtxhostError) works across copies of the package. */
export class AiSdkMiddlewareError extends CtxhostError {
  constructor(code: AiSdkErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, { ...options, plugin: 'ai-sdk' });
  }
}
