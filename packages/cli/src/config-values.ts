import type { CtxhostConfig } from '@ctxhost/core';

/** One value of the merged config, as its key is written in a file, and where it came from. */
export interface ConfigValue {
  /** Dotted key as in the file: `compression.target_ratio`, `hooks.context-window-monitor.warn_at`. */
  key: string;
  value: unknown;
  /** The file that set it (absolute path), or `default`. */
  source: string;
}

/**
 * The config with its keys as written in a file (snake_case). Hook sections
 * under `hooks` already use the file's keys and are kept as they are.
 */
export function toFileShape(config: CtxhostConfig): Record<string, unknown> {
  return snakeKeys(config, []) as Record<string, unknown>;
}

/** Tables keyed by names the person chooses (model names): one value each, not one per cell. */
const TABLE_KEYS: ReadonlySet<string> = new Set(['hooks.prompt-caching.pricing']);

/**
 * Every leaf of the merged config (lists and named tables are leaves), with the
 * file that set it from `loadConfig`'s `sources`, else `default`. A table set
 * partly by several files names each of them.
 */
export function configValues(config: CtxhostConfig, sources: Readonly<Record<string, string>>): ConfigValue[] {
  const values: ConfigValue[] = [];
  const visit = (value: unknown, path: string[]): void => {
    const key = path.join('.');
    if (isPlainObject(value) && !TABLE_KEYS.has(key)) {
      for (const [name, entry] of Object.entries(value)) visit(entry, [...path, name]);
      return;
    }
    values.push({ key, value, source: sourceOf(key, sources) });
  };
  visit(toFileShape(config), []);
  return values;
}

function sourceOf(key: string, sources: Readonly<Record<string, string>>): string {
  if (sources[key] !== undefined) return sources[key];
  const files = new Set(Object.entries(sources).flatMap(([path, file]) => (path.startsWith(`${key}.`) ? [file] : [])));
  return files.size === 0 ? 'default' : [...files].join(', ');
}

function snakeKeys(value: unknown, path: readonly string[]): unknown {
  if (!isPlainObject(value)) return value;
  const insideHooks = path[0] === 'hooks';
  return Object.fromEntries(
    Object.entries(value).map(([key, entry]) => {
      const fileKey = insideHooks ? key : key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
      return [fileKey, snakeKeys(entry, [...path, fileKey])];
    }),
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
