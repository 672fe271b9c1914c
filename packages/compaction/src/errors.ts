import { CtxhostError, type CtxhostErrorOptions } from '@ctxhost/core';

/** Stable codes of the compaction library's errors. */
export const COMPACTION_ERROR_CODES = {
  /** A strategy or trigger was given an option it cannot use (a negative count, no trigger where one is needed). */
  optionsInvalid: 'CTXHOST_COMPACTION_OPTIONS_INVALID',
  /** The summarizer threw or returned an empty summary; the span it covered was restored. */
  summarizerFailed: 'CTXHOST_COMPACTION_SUMMARIZER_FAILED',
  /** The caller's signal aborted the compaction; nothing was changed. */
  aborted: 'CTXHOST_COMPACTION_ABORTED',
} as const;

export type CompactionErrorCode = (typeof COMPACTION_ERROR_CODES)[keyof typeof COMPACTION_ERROR_CODES];

const COMPACTION_ERROR = Symbol.for('ctxhost.compaction-error');

export interface CompactionErrorOptions extends CtxhostErrorOptions {
  /** The strategy involved (`truncation`, `summarization`, …). */
  strategy?: string;
}

/** A compaction failed or was misconfigured. The message names the strategy, what was wrong and what to do. */
export class CompactionError extends CtxhostError {
  readonly strategy: string | undefined;
  readonly [COMPACTION_ERROR] = true;

  constructor(code: CompactionErrorCode, message: string, options: CompactionErrorOptions = {}) {
    super(code, message, options);
    this.strategy = options.strategy;
  }

  static override isInstance(value: unknown): value is CompactionError {
    return CtxhostError.isInstance(value) && (value as { [COMPACTION_ERROR]?: unknown })[COMPACTION_ERROR] === true;
  }
}

/** Throws CTXHOST_COMPACTION_OPTIONS_INVALID unless `value` is a whole number ≥ 0 (or undefined when optional). */
export function assertCount(value: unknown, option: string, where: string): asserts value is number | undefined {
  if (value === undefined) return;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return;
  throw new CompactionError(
    COMPACTION_ERROR_CODES.optionsInvalid,
    `${where}: option ${option} must be a whole number ≥ 0, got ${JSON.stringify(value) ?? String(value)}; pass a count such as 4`,
    { strategy: where },
  );
}

/** Throws CTXHOST_COMPACTION_ABORTED when the signal has aborted. */
export function throwIfAborted(signal: AbortSignal | undefined, where: string): void {
  if (signal?.aborted !== true) return;
  throw new CompactionError(
    COMPACTION_ERROR_CODES.aborted,
    `${where}: compaction aborted by the caller's signal; nothing was changed`,
    {
      strategy: where,
      cause: signal.reason,
    },
  );
}
