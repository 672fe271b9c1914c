import { stat } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import envPaths from 'env-paths';
import type { ConfigDocument } from './config-document.js';
import { readConfigDocument } from './config-document.js';
import { createConfigSchema, toCtxhostConfig } from './config-file-schema.js';
import { configErrorMap, formatKeyPath, toConfigIssues } from './config-issues.js';
import type { CtxhostConfig } from './config-schema.js';
import type { ConfigSection } from './config-section.js';
import { resolveDisabledHooks, type ConfigWarning } from './disabled-hooks.js';
import {
  isTrustedProject,
  refusalWarning,
  resolvePluginDirs,
  userPluginDirectory,
  withoutCodeLoadingSettings,
  type RefusedSetting,
} from './project-trust.js';
import { ConfigError, type ConfigIssue } from '../errors.js';

export interface LoadConfigOptions {
  /** The project folder; its `.ctxhost/config.{yaml,yml,json}` wins over the user file. */
  cwd: string;
  /** The folder holding the user `config.yaml` (default: env-paths config folder for `ctxhost`, or `CTXHOST_CONFIG_DIR`). */
  userConfigDir?: string;
  /** Hook sections composed under `hooks.<key>`. */
  sections?: readonly ConfigSection[];
  /** Environment read for `CTXHOST_CONFIG_DIR` (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * More files read after the project file, each winning over the ones before; missing ones are skipped.
   * A path is a project's file (a host's own, such as `.opencode/ctxhost.yaml`): its code-loading settings
   * need a trusted project. `{ path, level: 'user' }` is the person's own (a `--config` on the command line).
   */
  extraFiles?: readonly (string | { path: string; level: ConfigLevel })[];
  /**
   * Honour the project's code-loading settings (`plugin_dirs`, a plugin engine in `context.engine`) for this
   * load, as `trusted_projects` in the user config does (the CLI's `--trust-project`). Default false.
   */
  trustProject?: boolean;
  /** The user plugins folder, to tell a plugin engine's name from a harmless one (default: env-paths data `/plugins`). */
  userPluginDir?: string;
}

/** Whose file it is: the person's own (the user config, a file named on the command line) or the project's. */
export type ConfigLevel = 'user' | 'project';

export interface LoadedConfig {
  config: CtxhostConfig;
  /** For each dotted key set in a file (`compression.threshold`), the file that set it. */
  sources: Record<string, string>;
  /** The files read, user file first, as absolute paths. */
  files: string[];
  /** Problems that did not fail a file (an unknown or renamed hook in `disabled_hooks`, a refused setting), each with where it is. */
  warnings: ConfigWarning[];
  /** Code-loading settings a project's file made that were not applied (the project is not trusted). */
  refused: RefusedSetting[];
  /** Whether the project's code-loading settings were honoured (`trusted_projects` or `trustProject`). */
  projectTrusted: boolean;
}

const FILE_NAMES = ['config.yaml', 'config.yml', 'config.json'] as const;

/**
 * Reads the user file, then the project file over it, key by key (arrays
 * replace). Every problem in either file is reported together in one ConfigError.
 */
export async function loadConfig(options: LoadConfigOptions): Promise<LoadedConfig> {
  const env = options.env ?? process.env;
  const userDir = options.userConfigDir ?? env.CTXHOST_CONFIG_DIR ?? envPaths('ctxhost', { suffix: '' }).config;
  const schema = createConfigSchema(options.sections ?? []);
  const issues: ConfigIssue[] = [];
  let unreadable: unknown;
  const documents: ConfigDocument[] = [];
  const levels = new Map<ConfigDocument, ConfigLevel>();
  const found: { path: string; level: ConfigLevel }[] = [];
  for (const [folder, level] of [
    [userDir, 'user'],
    [join(options.cwd, '.ctxhost'), 'project'],
  ] as const) {
    const file = await findConfigFile(folder, options.cwd, issues);
    if (file !== undefined) found.push({ path: file, level });
  }
  for (const extra of options.extraFiles ?? []) {
    const file = typeof extra === 'string' ? { path: extra, level: 'project' as const } : extra;
    if (await exists(file.path)) found.push(file);
  }
  for (const { path: file, level } of found) {
    const result = await readConfigDocument(
      file,
      displayPath(file, options.cwd),
      level === 'project' ? { confineTo: options.cwd } : {},
    );
    if (result.status === 'unreadable') {
      issues.push(result.issue);
      unreadable ??= result.cause;
    } else if (result.status === 'invalid') {
      issues.push(...result.issues);
    } else if (result.status === 'ok') {
      const check = schema.safeParse(result.document.value, { reportInput: true, error: configErrorMap });
      if (!check.success)
        issues.push(
          ...byPosition(
            toConfigIssues(check.error.issues, { file: result.document.displayPath, locate: result.document.locate }),
          ),
        );
      documents.push(result.document);
      levels.set(result.document, level);
    }
  }
  if (issues.length > 0) throw new ConfigError(issues, { unreadable: unreadable !== undefined, cause: unreadable });
  const trust = projectTrust(documents, levels, options);
  for (const document of documents) if (!trust.trusted && levels.get(document) === 'project') trust.strip(document);
  const merged = documents.reduce<unknown>((base, document) => mergeConfig(base, document.value), {});
  // disabled_hooks joins across files (a project adds to the user's list) rather than replacing it.
  const hooks = resolveDisabledHooks(documents.flatMap((document) => disabledHooksOf(document)));
  if (isPlainObject(merged) && documents.some((document) => disabledHooksOf(document).length > 0))
    merged.disabled_hooks = hooks.names;
  const sources: Record<string, string> = {};
  for (const document of documents) recordSources(document.value, [], document.path, sources);
  if (documents.filter((document) => disabledHooksOf(document).length > 0).length > 1)
    sources.disabled_hooks = documents
      .filter((document) => disabledHooksOf(document).length > 0)
      .map((document) => document.path)
      .join(', ');
  return {
    config: toCtxhostConfig(schema.parse(merged)),
    sources,
    files: documents.map((document) => document.path),
    warnings: [...trust.refused.map(refusalWarning), ...hooks.warnings],
    refused: trust.refused,
    projectTrusted: trust.trusted,
  };
}

/**
 * Whether the project may load code, and a way to take its code-loading settings out of a document
 * (in place, before the merge) when it may not. Only the person's own files say which projects are trusted.
 */
function projectTrust(
  documents: readonly ConfigDocument[],
  levels: ReadonlyMap<ConfigDocument, ConfigLevel>,
  options: LoadConfigOptions,
): { trusted: boolean; refused: RefusedSetting[]; strip: (document: ConfigDocument) => void } {
  const own = documents.filter((document) => levels.get(document) === 'user');
  const listOf = (key: string): unknown[] =>
    own.flatMap((document) =>
      isPlainObject(document.value) && Array.isArray(document.value[key]) ? (document.value[key] as unknown[]) : [],
    );
  const trusted = options.trustProject === true || isTrustedProject(options.cwd, listOf('trusted_projects'));
  const pluginDirs = [
    options.userPluginDir ?? userPluginDirectory(),
    ...resolvePluginDirs(listOf('plugin_dirs'), options.cwd),
    join(options.cwd, '.ctxhost', 'plugins'),
  ];
  const refused: RefusedSetting[] = [];
  const strip = (document: ConfigDocument): void => {
    const result = withoutCodeLoadingSettings(document, { cwd: options.cwd, pluginDirs });
    document.value = result.value;
    refused.push(...result.refused);
  };
  return { trusted, refused, strip };
}

function disabledHooksOf(
  document: ConfigDocument,
): { names: unknown[]; file: string; locate: ConfigDocument['locate'] }[] {
  const value = isPlainObject(document.value) ? document.value.disabled_hooks : undefined;
  return Array.isArray(value) ? [{ names: value, file: document.displayPath, locate: document.locate }] : [];
}

/** The one config file in a folder; two of them (config.yaml and config.json) is a problem, not a silent choice. */
async function findConfigFile(folder: string, cwd: string, issues: ConfigIssue[]): Promise<string | undefined> {
  const present: string[] = [];
  for (const name of FILE_NAMES) {
    const path = join(folder, name);
    const exists = await stat(path).then(
      () => true,
      (error: NodeJS.ErrnoException) => error.code !== 'ENOENT' && error.code !== 'ENOTDIR',
    );
    if (exists) present.push(path);
  }
  if (present.length > 1) {
    const names = present.map((path) => displayPath(path, cwd));
    issues.push({
      file: names[0],
      line: undefined,
      column: undefined,
      path: '',
      expected: 'a single config file in this folder',
      found: `also ${names.slice(1).join(' and ')}; merge them into one`,
    });
  }
  return present[0];
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => error.code !== 'ENOENT' && error.code !== 'ENOTDIR',
  );
}

function byPosition(issues: ConfigIssue[]): ConfigIssue[] {
  return issues.sort((left, right) => (left.line ?? 0) - (right.line ?? 0) || (left.column ?? 0) - (right.column ?? 0));
}

function displayPath(path: string, cwd: string): string {
  const inside = relative(cwd, path);
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Key-by-key merge: mappings merge recursively, everything else (lists included) is replaced. */
export function mergeConfig(base: unknown, override: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(override)) return override;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    const next = Object.hasOwn(merged, key) ? mergeConfig(merged[key], value) : value;
    Object.defineProperty(merged, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return merged;
}

function recordSources(value: unknown, path: string[], file: string, sources: Record<string, string>): void {
  if (isPlainObject(value) && Object.keys(value).length > 0) {
    for (const [key, entry] of Object.entries(value)) recordSources(entry, [...path, key], file, sources);
  } else if (path.length > 0) {
    sources[formatKeyPath(path)] = file;
  }
}
