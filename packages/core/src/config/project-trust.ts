import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import envPaths from 'env-paths';
import type { ConfigDocument } from './config-document.js';
import type { ConfigWarning } from './disabled-hooks.js';

/**
 * Settings that make ctxhost import and run code, send the conversation or a
 * key somewhere, or that only the person may set. A project's own files (its
 * `.ctxhost/config.yaml`, a host's project file such as `.opencode/ctxhost.yaml`)
 * come with whatever repository was cloned, so these are honoured from them
 * only when the person trusts that project.
 */
export const CODE_LOADING_SETTINGS = [
  'plugin_dirs',
  'context.engine',
  'trusted_projects',
  'auxiliary.compression.base_url',
  'auxiliary.compression.api_key_env',
  'store.url',
  'store.path',
  'hooks.gateway.upstream',
  'hooks.gateway.upstreams',
  'hooks.gateway.models.*.upstream',
] as const;

/** Settings that send the conversation, a key or every session somewhere the file chooses (a database, a folder), and why each is refused. */
const DATA_SENDING_SETTINGS = [
  {
    key: 'auxiliary.compression.base_url',
    why: 'the summarizer would send the conversation (and its API key) to that address',
  },
  {
    key: 'auxiliary.compression.api_key_env',
    why: 'the summarizer would send the value of that environment variable as its API key',
  },
  { key: 'store.url', why: 'every session would be written to that database' },
  // Conversations carry what the person pasted (keys included): inside the clone they could be committed, or anywhere on disk.
  {
    key: 'store.path',
    why: 'every session, with whatever it holds, would be written to that folder (inside the repository it could be committed)',
  },
  // `ctxhost gateway` forwards each caller's request with its API key: an upstream named by a clone is a collector.
  {
    key: 'hooks.gateway.upstream',
    why: "the gateway would forward requests, with each caller's API key, to that address",
  },
  {
    key: 'hooks.gateway.upstreams',
    why: "the gateway would forward requests, with each caller's API key, to those addresses",
  },
  {
    key: 'hooks.gateway.models.*.upstream',
    why: "the gateway would forward that model's requests, with each caller's API key, to that address",
  },
] as const satisfies readonly { key: CodeLoadingSetting; why: string }[];
export type CodeLoadingSetting = (typeof CODE_LOADING_SETTINGS)[number];

/** A setting a config file made that was not applied, and why. */
export interface RefusedSetting {
  /** The key as written (`plugin_dirs`, `context.engine`). */
  key: CodeLoadingSetting;
  /** The file as shown to the person. */
  file: string;
  line: number | undefined;
  column: number | undefined;
  /** The value the file gave. */
  value: unknown;
  /** Why it was refused and what to do. */
  reason: string;
}

/** Whether `cwd` is one of the user config's `trusted_projects` (absolute or `~/` paths, compared after symlinks). */
export function isTrustedProject(cwd: string, trustedProjects: readonly unknown[]): boolean {
  const here = canonical(cwd);
  return trustedProjects.some((entry) => typeof entry === 'string' && canonical(expandHome(entry)) === here);
}

function expandHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
}

function canonical(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}

/** The user plugins folder: `plugins` under the env-paths data folder for ctxhost. */
export function userPluginDirectory(): string {
  return join(envPaths('ctxhost', { suffix: '' }).data, 'plugins');
}

export interface ProjectTrustOptions {
  cwd: string;
  /** Plugin folders the person's own settings name (the user plugins folder and the user's `plugin_dirs`). */
  pluginDirs: readonly string[];
}

/**
 * A project file's value with its code-loading settings taken out, and what was
 * taken out: `plugin_dirs` and `trusted_projects` always; `context.engine` when
 * the name is found as `context_engine/<name>/` in a plugin folder (naming it
 * would import that folder's code). A built-in or registered engine name, or a
 * name found nowhere, is harmless and stays.
 */
export function withoutCodeLoadingSettings(
  document: ConfigDocument,
  options: ProjectTrustOptions,
): { value: unknown; refused: RefusedSetting[] } {
  const value = document.value;
  if (!isPlainObject(value)) return { value, refused: [] };
  const refused: RefusedSetting[] = [];
  const copy: Record<string, unknown> = { ...value };
  // The folders this file itself names count too: the engine they hold is the code it would run.
  const ownDirs = Array.isArray(copy.plugin_dirs) ? resolvePluginDirs(copy.plugin_dirs as unknown[], options.cwd) : [];
  const refuse = (key: CodeLoadingSetting, keyPath: string[], found: unknown, why: string): void => {
    const position = document.locate(keyPath, 'key');
    refused.push({
      key,
      file: document.displayPath,
      line: position?.line,
      column: position?.column,
      value: found,
      reason: `${why}; a project's config may not load code or send data elsewhere. To allow it for this project, add ${JSON.stringify(options.cwd)} to trusted_projects in your user config.yaml, or pass the setting on the command line`,
    });
  };
  if (Object.hasOwn(copy, 'plugin_dirs')) {
    refuse('plugin_dirs', ['plugin_dirs'], copy.plugin_dirs, 'plugin folders run their code');
    delete copy.plugin_dirs;
  }
  if (Object.hasOwn(copy, 'trusted_projects')) {
    refuse(
      'trusted_projects',
      ['trusted_projects'],
      copy.trusted_projects,
      'only your user config names trusted projects',
    );
    delete copy.trusted_projects;
  }
  const context = copy.context;
  if (isPlainObject(context) && typeof context.engine === 'string') {
    const folder = pluginEngineFolder(context.engine, [...options.pluginDirs, ...ownDirs]);
    if (folder !== undefined) {
      refuse('context.engine', ['context', 'engine'], context.engine, `the engine would be imported from ${folder}`);
      const { engine: _engine, ...rest } = context;
      copy.context = rest;
    }
  }
  for (const { key, why } of DATA_SENDING_SETTINGS)
    for (const path of pathsMatching(copy, key.split('.'))) {
      const removed = withoutPath(copy, path);
      if (removed === undefined) continue;
      refuse(key, path, removed.value, why);
      Object.assign(copy, removed.rest);
    }
  return { value: copy, refused };
}

/** The key paths in `value` that `pattern` names, `*` standing for every key of a mapping. */
function pathsMatching(value: unknown, pattern: readonly string[]): string[][] {
  if (pattern.length === 0) return [[]];
  if (!isPlainObject(value)) return [];
  const [head, ...tail] = pattern as [string, ...string[]];
  const keys = head === '*' ? Object.keys(value) : Object.hasOwn(value, head) ? [head] : [];
  return keys.flatMap((key) => pathsMatching(value[key], tail).map((rest) => [key, ...rest]));
}

/**
 * `value` without the key at `path` (copies along the path, the original untouched), and the value
 * removed; undefined when nothing is there.
 */
function withoutPath(
  value: Record<string, unknown>,
  path: readonly string[],
): { rest: Record<string, unknown>; value: unknown } | undefined {
  const [head, ...tail] = path as [string, ...string[]];
  if (!Object.hasOwn(value, head)) return undefined;
  if (tail.length === 0) {
    const { [head]: removed, ...rest } = value;
    return { rest, value: removed };
  }
  const child = value[head];
  if (!isPlainObject(child)) return undefined;
  const inner = withoutPath(child, tail);
  return inner === undefined ? undefined : { rest: { ...value, [head]: inner.rest }, value: inner.value };
}

/** The plugin folder `context_engine/<name>/` that naming this engine would import, if any. */
function pluginEngineFolder(name: string, pluginDirs: readonly string[]): string | undefined {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) return undefined;
  for (const dir of pluginDirs) {
    const folder = join(dir, 'context_engine', name);
    if (existsSync(folder)) return folder;
  }
  return undefined;
}

/** A refusal as a config warning, for the lines `config check` and the commands print. */
export function refusalWarning(refusal: RefusedSetting): ConfigWarning {
  return {
    file: refusal.file,
    line: refusal.line,
    column: refusal.column,
    path: refusal.key,
    message: `refused ${JSON.stringify(refusal.value)}: ${refusal.reason}`,
  };
}

/** Plugin folders as given in a config: relative ones resolved against the project folder. */
export function resolvePluginDirs(dirs: readonly unknown[], cwd: string): string[] {
  return dirs.flatMap((dir) => (typeof dir === 'string' ? [isAbsolute(dir) ? dir : resolve(cwd, dir)] : []));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
