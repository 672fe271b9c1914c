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
  engineNotFound: 'CTXHOST_ENGINE_NOT_FOUND',
  storeCorrupt: 'CTXHOST_STORE_CORRUPT',
  storeVersion: 'CTXHOST_STORE_VERSION',
  storeInUse: 'CTXHOST_STORE_IN_USE',
  storeIdInvalid: 'CTXHOST_STORE_ID_INVALID',
  storeBroken: 'CTXHOST_STORE_BROKEN',
  storeConflict: 'CTXHOST_STORE_CONFLICT',
  sessionStale: 'CTXHOST_SESSION_STALE',
  sessionNotFound: 'CTXHOST_SESSION_NOT_FOUND',
  sessionReleased: 'CTXHOST_SESSION_RELEASED',
  partNotFound: 'CTXHOST_PART_NOT_FOUND',
  messageNotFound: 'CTXHOST_MESSAGE_NOT_FOUND',
  hostDisposed: 'CTXHOST_HOST_DISPOSED',
  sessionExists: 'CTXHOST_SESSION_EXISTS',
  projectionInvalid: 'CTXHOST_PROJECTION_INVALID',
  cacheEntryInvalid: 'CTXHOST_CACHE_ENTRY_INVALID',
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
    return (
      typeof value === 'object' && value !== null && (value as { [CTXHOST_ERROR]?: unknown })[CTXHOST_ERROR] === true
    );
  }

  /** True when `value` is a ctxhost error with this code. */
  static hasCode(value: unknown, code: string): value is CtxhostError {
    return CtxhostError.isInstance(value) && value.code === code;
  }
}

/** One configuration problem, located in the file it came from when there is one. */
export interface ConfigIssue {
  /** The file as shown to the person (relative to the working directory when inside it). */
  file: string | undefined;
  /** 1-based line and column of the offending key or value, when known. */
  line: number | undefined;
  column: number | undefined;
  /** Dotted key path as written in the file (`compression.threshold`, `disabled_hooks[1]`); empty for the whole file. */
  path: string;
  expected: string;
  found: string;
}

/** `config .ctxhost/config.yaml:4:3 compression.threshold: expected a number between 0 and 1, got "half"` */
export function formatConfigIssue(issue: ConfigIssue): string {
  const position =
    issue.line === undefined ? '' : `:${issue.line}${issue.column === undefined ? '' : `:${issue.column}`}`;
  const where = issue.file === undefined ? 'config' : `config ${issue.file}${position}`;
  const path = issue.path === '' ? '' : ` ${issue.path}`;
  return `${where}${path}: expected ${issue.expected}, got ${issue.found}`;
}

/**
 * Every configuration problem found, reported together. The code is
 * CTXHOST_CONFIG_UNREADABLE when a file could not be read at all, otherwise
 * CTXHOST_CONFIG_INVALID.
 */
export class ConfigError extends CtxhostError {
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[], options: CtxhostErrorOptions & { unreadable?: boolean } = {}) {
    const code = options.unreadable === true ? CORE_ERROR_CODES.configUnreadable : CORE_ERROR_CODES.configInvalid;
    const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`;
    const lines = issues.map((issue) => `  ${formatConfigIssue(issue)}`);
    super(code, [`ctxhost configuration has ${count}; fix the keys below and retry:`, ...lines].join('\n'), options);
    this.issues = issues;
  }
}

/** A provider message that cannot be converted (an unsupported block, a part in the wrong role). `where` names it. */
export class AdapterError extends CtxhostError {
  readonly where: string;

  constructor(where: string, problem: string, options: CtxhostErrorOptions = {}) {
    super(CORE_ERROR_CODES.adapterInvalid, `${where}: ${problem}`, options);
    this.where = where;
  }
}
