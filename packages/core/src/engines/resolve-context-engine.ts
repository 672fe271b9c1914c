import { existsSync, readFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import envPaths from 'env-paths';
import { DEFAULT_CONFIG } from '../config/config-defaults.js';
import type { CtxhostConfig } from '../config/config-schema.js';
import type { ContextEngine, ContextEngineFactory, EngineFactoryOptions } from './context-engine.js';
import {
  createNoneEngine as noneEngine,
  registeredContextEngine,
  registeredContextEngineNames,
} from './engine-registry.js';
import { CORE_ERROR_CODES, CtxhostError } from '../errors.js';
import type { Summarizer } from '../model/summarizer.js';

export interface ResolveContextEngineOptions {
  cwd?: string;
  /** Engines handed to the host, checked with the registry. */
  engines?: Record<string, ContextEngineFactory>;
  /** The built-in engine, used when `context.engine` names it (the `ctxhost` package hands in the compressor). */
  fallback?: { name: string; factory: ContextEngineFactory };
  summarizer?: Summarizer;
  /** Overrides the user plugins folder (tests). */
  userPluginDir?: string;
  /**
   * Also search the project's `<cwd>/.ctxhost/plugins` (off by default: a
   * repository you cloned must not run code because you ran ctxhost in it).
   * `plugin_dirs` in a config is the other way to opt in.
   */
  projectPlugins?: boolean;
  /** Told the file a plugin engine is about to be imported from (the CLI prints it). */
  onPluginLoad?: (info: { name: string; file: string }) => void;
}

/** `built-in`: the host's own engine (the compressor with the `ctxhost` package) or `none`. */
export type EngineSource = 'plugin-folder' | 'registry' | 'built-in';

export interface ResolvedContextEngine {
  engine: ContextEngine;
  source: EngineSource;
  /** Folders searched for `context_engine/<name>/`. */
  searched: string[];
  /** The file a plugin-folder engine was imported from. */
  file?: string;
}

/** What `context.engine` may be: one plain name, never a path (it becomes a folder name under each plugin directory). */
const ENGINE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Throws CTXHOST_CONFIG_INVALID for an engine name that is not a plain name. */
export function assertEngineName(name: string): void {
  if (!ENGINE_NAME.test(name)) {
    throw new CtxhostError(
      CORE_ERROR_CODES.configInvalid,
      `context.engine ${JSON.stringify(name)} is not an engine name: use up to 64 letters, digits, ".", "_" and "-", starting with a letter or digit (a name, not a path)`,
    );
  }
}

/** The plugin directories, in the order they are searched: the user's, then `plugin_dirs`, then the project's when asked for. */
export function pluginDirectories(
  config: Pick<CtxhostConfig, 'pluginDirs'>,
  options: Pick<ResolveContextEngineOptions, 'cwd' | 'userPluginDir' | 'projectPlugins'> = {},
): string[] {
  const cwd = options.cwd ?? process.cwd();
  const user = options.userPluginDir ?? join(envPaths('ctxhost', { suffix: '' }).data, 'plugins');
  const project = options.projectPlugins === true ? [join(cwd, '.ctxhost', 'plugins')] : [];
  return [...new Set([user, ...config.pluginDirs.map((dir) => resolve(cwd, dir)), ...project])];
}

/**
 * Finds the engine `context.engine` names: (1) a built-in or registered
 * engine of that name (the built-in engine's name, `none`, the registry, the
 * `engines` given) — never looked up in a plugin folder, so no folder can
 * stand in for one; (2) a folder `context_engine/<name>/` under each plugin
 * directory (importing it runs its code). A name found nowhere is
 * CTXHOST_ENGINE_NOT_FOUND, never another engine in its place. A plugin
 * engine is active only when named.
 */
export async function resolveContextEngine(
  config: CtxhostConfig,
  options: ResolveContextEngineOptions = {},
): Promise<ResolvedContextEngine> {
  const name = config.context.engine;
  assertEngineName(name);
  const factoryOptions: EngineFactoryOptions = {
    config,
    ...(options.summarizer === undefined ? {} : { summarizer: options.summarizer }),
  };
  if (isBuiltInName(name, options)) return { ...resolveRegisteredEngine(config, options), searched: [] };
  const searched = pluginDirectories(config, options).map((dir) => join(dir, 'context_engine', name));
  for (const folder of searched) {
    if (existsSync(folder)) {
      const file = engineEntry(folder, name);
      options.onPluginLoad?.({ name, file });
      return { engine: await loadEngineFile(file, name, factoryOptions), source: 'plugin-folder', searched, file };
    }
  }
  throw engineNotFound(name, options, searched);
}

/** The synchronous part of resolution (built-in and registered engines), for `createHost`. */
export function resolveRegisteredEngine(
  config: CtxhostConfig,
  options: ResolveContextEngineOptions = {},
): Omit<ResolvedContextEngine, 'searched'> {
  const name = config.context.engine;
  assertEngineName(name);
  const factoryOptions: EngineFactoryOptions = {
    config,
    ...(options.summarizer === undefined ? {} : { summarizer: options.summarizer }),
  };
  const registered = options.engines?.[name] ?? registeredContextEngine(name);
  if (registered !== undefined) return { engine: registered(factoryOptions), source: 'registry' };
  if (name === 'none') return { engine: noneEngine(), source: 'built-in' };
  // The fallback is the built-in engine slot: it answers its own name and the default name, whatever it is called.
  if (options.fallback !== undefined && (options.fallback.name === name || name === DEFAULT_CONFIG.context.engine))
    return { engine: options.fallback.factory(factoryOptions), source: 'built-in' };
  // Bare core has no compressor: the default name, which nobody chose, means no engine there.
  if (options.fallback === undefined && name === DEFAULT_CONFIG.context.engine)
    return { engine: noneEngine(), source: 'built-in' };
  throw engineNotFound(name, options, []);
}

/** The names `context.engine` could have used, for the error. */
function knownEngineNames(options: ResolveContextEngineOptions): string[] {
  return [
    ...new Set([
      ...(options.fallback === undefined ? [] : [options.fallback.name]),
      'none',
      ...Object.keys(options.engines ?? {}),
      ...registeredContextEngineNames(),
    ]),
  ];
}

function engineNotFound(name: string, options: ResolveContextEngineOptions, searched: string[]): CtxhostError {
  const where =
    searched.length > 0
      ? `searched ${searched.join(', ')} and the engine registry`
      : 'it is neither built in nor registered (plugin-folder engines load with createHostAsync / createDefaultHost)';
  return new CtxhostError(
    CORE_ERROR_CODES.engineNotFound,
    `context.engine "${name}" was not found: ${where}. Name one of ${knownEngineNames(options)
      .map((known) => `"${known}"`)
      .join(
        ', ',
      )}, register it with registerContextEngine(), or put it in context_engine/${name}/ under a plugin folder`,
    { plugin: name },
  );
}

/** A name the host already has an engine for (the fallback's, `none`, a registered one): never looked up in a plugin folder. */
function isBuiltInName(name: string, options: ResolveContextEngineOptions): boolean {
  return (
    options.fallback?.name === name ||
    name === 'none' ||
    name === DEFAULT_CONFIG.context.engine ||
    options.engines?.[name] !== undefined ||
    registeredContextEngine(name) !== undefined
  );
}

async function loadEngineFile(entry: string, name: string, options: EngineFactoryOptions): Promise<ContextEngine> {
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(entry).href)) as Record<string, unknown>;
  } catch (cause) {
    throw new CtxhostError(
      CORE_ERROR_CODES.engineLoadFailed,
      `context engine "${name}": could not load ${entry} (is the plugin built?)`,
      { cause, plugin: name },
    );
  }
  const factory = module['default'] ?? module['createContextEngine'];
  if (typeof factory !== 'function') {
    throw new CtxhostError(
      CORE_ERROR_CODES.engineLoadFailed,
      `context engine "${name}": ${entry} must export the engine factory as its default export or as "createContextEngine"`,
      { plugin: name },
    );
  }
  return (factory as ContextEngineFactory)(options);
}

function engineEntry(folder: string, name: string): string {
  const manifest = join(folder, 'package.json');
  if (existsSync(manifest)) {
    const main = (JSON.parse(readFileSync(manifest, 'utf8')) as { main?: unknown }).main;
    if (typeof main === 'string') {
      const entry = resolve(folder, main);
      if (!entry.startsWith(folder + sep)) {
        throw new CtxhostError(
          CORE_ERROR_CODES.engineLoadFailed,
          `context engine "${name}": ${manifest} names "main": ${JSON.stringify(main)}, outside its folder; an engine is loaded only from inside its folder`,
          { plugin: name },
        );
      }
      return entry;
    }
  }
  for (const candidate of ['index.js', 'index.mjs'])
    if (existsSync(join(folder, candidate))) return join(folder, candidate);
  return join(folder, 'index.js');
}
