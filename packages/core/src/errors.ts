/**
 * Core's errors. Every error carries a stable `code`, an optional `cause`, and,
 * where a hook or plugin was involved, its name. `isInstance` works across
 * copies of core (a plugin that bundles its own), where `instanceof` does not.
 */
export const CORE_ERROR_CODES = {
  messageInvalid: 'CTXHOST_MESSAGE_INVALID',
  adapterInvalid: 'CTXHOST_ADAPTER_INVALID',
  configInvalid: 'CTXHOST_CONFIG_INVALID',
  configUnreadable: 'CTXHOST_CONFIG_UNREADABLE',
  hookFailed: 'CTXHOST_HOOK_FAILED',
  pluginLate: 'CTXHOST_PLUGIN_REGISTERED_LATE',
  pluginDuplicate: 'CTXHOST_PLUGIN_DUPLICATE',
  engineDuplicate: 'CTXHOST_ENGINE_DUPLICATE',
  engineLoadFailed: 'CTXHOST_ENGINE_LOAD_FAILED',
  storeCorrupt: 'CTXHOST_STORE_CORRUPT',
  storeVersion: 'CTXHOST_STORE_VERSION',
  storeInUse: 'CTXHOST_STORE_IN_USE',
  sessionNotFound: 'CTXHOST_SESSION_NOT_FOUND',
  partNotFound: 'CTXHOST_PART_NOT_FOUND',
  messageNotFound: 'CTXHOST_MESSAGE_NOT_FOUND',
  hostDisposed: 'CTXHOST_HOST_DISPOSED',
} as const;

export type CoreErrorCode = (typeof CORE_ERROR_CODES)[keyof typeof CORE_ERROR_CODES];

const CTXHOST_ERROR = Symbol.for('ctxhost.error');

export interface CtxhostErrorOptions {
  cause?: unknown;
  /** The hook or plugin involved, when there is one. */
  plugin?: string;
}

/** Base class of every ctxhost error, in every package. */
export class CtxhostError extends Error {
  readonly code: string;
  readonly plugin: string | undefined;
  readonly [CTXHOST_ERROR] = true;

  constructor(code: string, message: string, options: CtxhostErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.plugin = options.plugin;
  }

  static isInstance(value: unknown): value is CtxhostError {
    return typeof value === 'object' && value !== null && (value as { [CTXHOST_ERROR]?: unknown })[CTXHOST_ERROR] === true;
  }

  /** True when `value` is a ctxhost error with this code. */
  static hasCode(value: unknown, code: string): value is CtxhostError {
    return CtxhostError.isInstance(value) && value.code === code;
  }
}
