import { CtxhostError, type CtxhostErrorOptions } from '@ctxhost/core';

/** Stable codes of the compressor's errors. */
export const COMPRESSOR_ERROR_CODES = {
  /** `createCompressor` was given options the config file would reject (a `targetRatio` out of range, a misspelt key). */
  optionsInvalid: 'CTXHOST_COMPRESSOR_OPTIONS_INVALID',
} as const;

export type CompressorErrorCode = (typeof COMPRESSOR_ERROR_CODES)[keyof typeof COMPRESSOR_ERROR_CODES];

const COMPRESSOR_ERROR = Symbol.for('ctxhost.compressor-error');

/** A compressor error; the message names the option, what was expected and what was given. */
export class CompressorError extends CtxhostError {
  readonly [COMPRESSOR_ERROR] = true;

  constructor(code: CompressorErrorCode, message: string, options: CtxhostErrorOptions = {}) {
    super(code, message, options);
  }

  static override isInstance(value: unknown): value is CompressorError {
    return CtxhostError.isInstance(value) && (value as { [COMPRESSOR_ERROR]?: unknown })[COMPRESSOR_ERROR] === true;
  }
}
