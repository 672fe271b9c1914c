import { CtxhostError, type CtxhostErrorOptions } from '@ctxhost/core';

/** Stable codes of @ctxhost/native-compaction's errors. */
export const NATIVE_COMPACTION_ERROR_CODES = {
  /** The provider refused or failed a compaction request (HTTP error, wrong stop reason, no compaction in the reply). */
  failed: 'CTXHOST_NATIVE_COMPACTION_FAILED',
  /** The model or provider has no native compaction (a gateway, an older model, another vendor). */
  unavailable: 'CTXHOST_NATIVE_COMPACTION_UNAVAILABLE',
} as const;

export type NativeCompactionErrorCode =
  (typeof NATIVE_COMPACTION_ERROR_CODES)[keyof typeof NATIVE_COMPACTION_ERROR_CODES];

const NATIVE_COMPACTION_ERROR = Symbol.for('ctxhost.native-compaction.error');

/** Base class of this package's errors; `isInstance` works across bundled copies. */
export class NativeCompactionError extends CtxhostError {
  readonly [NATIVE_COMPACTION_ERROR] = true;

  constructor(code: NativeCompactionErrorCode, message: string, options: CtxhostErrorOptions = {}) {
    super(code, message, { plugin: 'native-compaction', ...options });
  }

  static override isInstance(value: unknown): value is NativeCompactionError {
    return (
      CtxhostError.isInstance(value) &&
      (value as unknown as { [NATIVE_COMPACTION_ERROR]?: unknown })[NATIVE_COMPACTION_ERROR] === true
    );
  }
}

/** A provider's compaction request failed; the client engine compacts instead. */
export class NativeCompactionFailedError extends NativeCompactionError {
  constructor(vendor: string, what: string, options: CtxhostErrorOptions = {}) {
    super(
      NATIVE_COMPACTION_ERROR_CODES.failed,
      `native compaction (${vendor}): ${what}; the client engine compacted this span instead`,
      options,
    );
  }
}

/** No native compaction for this model or provider; the client engine compacts instead. */
export class NativeCompactionUnavailableError extends NativeCompactionError {
  constructor(reason: string) {
    super(
      NATIVE_COMPACTION_ERROR_CODES.unavailable,
      `native compaction unavailable (${reason}); the client engine compacts instead — turn the mechanism off for this model to silence this`,
    );
  }
}
