import { DEFAULT_CONFIG } from './config-defaults.js';
import { BUILT_IN_HOOK_NAMES, type CtxhostConfig } from './config-schema.js';
import { canonicalHookName } from './disabled-hooks.js';
import { CORE_ERROR_CODES, CtxhostError } from '../errors.js';

/** A config given in code: any section may be partial; missing keys take DEFAULT_CONFIG's values. */
export type PartialConfig = {
  [K in keyof CtxhostConfig]?: CtxhostConfig[K] extends unknown[] ? CtxhostConfig[K] : Partial<CtxhostConfig[K]>;
};

/**
 * Fills a partial config from DEFAULT_CONFIG, section by section. The result
 * is a fresh object: changing it never changes DEFAULT_CONFIG or the input.
 */
export function withDefaults(partial: PartialConfig = {}): CtxhostConfig {
  const defaults = structuredClone(DEFAULT_CONFIG) as unknown as Record<string, unknown>;
  const merged: Record<string, unknown> = { ...defaults };
  for (const [key, value] of Object.entries(partial)) {
    if (value === undefined) continue;
    const base = defaults[key];
    merged[key] = isPlainObject(base) && isPlainObject(value) ? { ...base, ...value } : value;
  }
  const config = merged as unknown as CtxhostConfig;
  if (partial.auxiliary !== undefined)
    config.auxiliary = { compression: { ...DEFAULT_CONFIG.auxiliary.compression, ...partial.auxiliary.compression } };
  return config;
}

/**
 * `disabled_hooks` names built-in hooks only. A config file is checked by its
 * schema; a config given in code (plain JavaScript can pass anything) is checked
 * here, so a misspelt name is an error rather than a hook silently left on.
 */
export function assertKnownDisabledHooks(config: Pick<CtxhostConfig, 'disabledHooks'>): void {
  const names: unknown = config.disabledHooks;
  if (!Array.isArray(names)) {
    throw new CtxhostError(
      CORE_ERROR_CODES.configInvalid,
      `config disabled_hooks: expected a list of hook names, got ${JSON.stringify(names)}`,
    );
  }
  const unknown = names.filter((name) => typeof name !== 'string' || canonicalHookName(name) === undefined);
  if (unknown.length === 0) return;
  throw new CtxhostError(
    CORE_ERROR_CODES.configInvalid,
    `config disabled_hooks: unknown hook ${unknown.map((name) => JSON.stringify(name)).join(', ')}; valid names are ${BUILT_IN_HOOK_NAMES.join(', ')}`,
  );
}

/** Whether `disabled_hooks` switches off the plugin of this name (only built-in hooks can be). */
export function isDisabledHook(config: Pick<CtxhostConfig, 'disabledHooks'>, name: string): boolean {
  return (
    (BUILT_IN_HOOK_NAMES as readonly string[]).includes(name) &&
    (config.disabledHooks as readonly string[]).some((entry) => canonicalHookName(entry) === name)
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
