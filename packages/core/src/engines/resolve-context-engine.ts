import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import envPaths from 'env-paths';
import { DEFAULT_CONFIG } from '../config/config-defaults.js';
import type { CtxhostConfig } from '../config/config-schema.js';
import type { ContextEngine, ContextEngineFactory, EngineFactoryOptions } from './context-engine.js';
import { createNoneEngine as noneEngine, registeredContextEngine } from './engine-registry.js';
import { CORE_ERROR_CODES, CtxhostError } from '../errors.js';
import type { Summarizer } from '../model/summarizer.js';

export interface ResolveContextEngineOptions {
  cwd?: string;
  /** Engines handed to the host, checked with the registry. */
  engines?: Record<string, ContextEngineFactory>;
  /** The built-in engine (the `ctxhost` package hands in the compressor). */
  fallback?: { name: string; factory: ContextEngineFactory };
  summarizer?: Summarizer;
  /** Overrides the user plugins folder (tests). */
  userPluginDir?: string;
}

export type EngineSource = 'plugin-folder' | 'registry' | 'fallback';

export interface ResolvedContextEngine {
  engine: ContextEngine;
  source: EngineSource;
  /** Folders searched for `context_engine/<name>/`. */
  searched: string[];
  /** Set when `context.engine` named an engine that was not found and the fallback was used. */
  notFound?: string;
}

/** The plugin directories, in the order they are searched. */
export function pluginDirectories(config: Pick<CtxhostConfig, 'pluginDirs'>, options: Pick<ResolveContextEngineOptions, 'cwd' | 'userPluginDir'> = {}): string[] {
  const cwd = options.cwd ?? process.cwd();
  const user = options.userPluginDir ?? join(envPaths('ctxhost', { suffix: '' }).data, 'plugins');
  return [join(cwd, '.ctxhost', 'plugins'), user, ...config.pluginDirs.map((dir) => resolve(cwd, dir))];
}

/**
 * Finds the engine `context.engine` names, in the seeds' order: (1) a folder
 * `context_engine/<name>/` under each plugin directory, (2) the registry,
 * (3) the built-in fallback. A plugin engine is active only when named.
 */
export async function resolveContextEngine(config: CtxhostConfig, options: ResolveContextEngineOptions = {}): Promise<ResolvedContextEngine> {
  const name = config.context.engine;
  const factoryOptions: EngineFactoryOptions = { config, ...(options.summarizer === undefined ? {} : { summarizer: options.summarizer }) };
  const searched = pluginDirectories(config, options).map((dir) => join(dir, 'context_engine', name));
  for (const folder of searched) {
    if (existsSync(folder)) return { engine: await loadEngineFolder(folder, name, factoryOptions), source: 'plugin-folder', searched };
  }
  const registered = options.engines?.[name] ?? registeredContextEngine(name);
  if (registered !== undefined) return { engine: registered(factoryOptions), source: 'registry', searched };
  const fallback = resolveFallback(options.fallback, factoryOptions);
  return { engine: fallback, source: 'fallback', searched, ...(isMissing(name, options.fallback) ? { notFound: name } : {}) };
}

/** The synchronous part of resolution (registry, then fallback), for `createHost`. */
export function resolveRegisteredEngine(config: CtxhostConfig, options: ResolveContextEngineOptions = {}): Omit<ResolvedContextEngine, 'searched'> {
  const name = config.context.engine;
  const factoryOptions: EngineFactoryOptions = { config, ...(options.summarizer === undefined ? {} : { summarizer: options.summarizer }) };
  const registered = options.engines?.[name] ?? registeredContextEngine(name);
  if (registered !== undefined) return { engine: registered(factoryOptions), source: 'registry' };
  const fallback = resolveFallback(options.fallback, factoryOptions);
  return { engine: fallback, source: 'fallback', ...(isMissing(name, options.fallback) ? { notFound: name } : {}) };
}

/**
 * Whether falling back deserves a word to the person. Not when the fallback is
 * the engine named, nor when the name is the default (`compressor`) and core
 * runs without the `ctxhost` package to supply it: nobody asked for it then.
 */
function isMissing(name: string, fallback: ResolveContextEngineOptions['fallback']): boolean {
  if (name === 'none' || fallback?.name === name) return false;
  return !(fallback === undefined && name === DEFAULT_CONFIG.context.engine);
}

function resolveFallback(fallback: ResolveContextEngineOptions['fallback'], options: EngineFactoryOptions): ContextEngine {
  if (fallback !== undefined) return fallback.factory(options);
  return noneEngine();
}

async function loadEngineFolder(folder: string, name: string, options: EngineFactoryOptions): Promise<ContextEngine> {
  const entry = engineEntry(folder);
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(entry).href)) as Record<string, unknown>;
  } catch (cause) {
    throw new CtxhostError(CORE_ERROR_CODES.engineLoadFailed, `context engine "${name}": could not load ${entry} (is the plugin built?)`, { cause, plugin: name });
  }
  const factory = module['default'] ?? module['createContextEngine'];
  if (typeof factory !== 'function') {
    throw new CtxhostError(CORE_ERROR_CODES.engineLoadFailed, `context engine "${name}": ${entry} must export the engine factory as its default export or as "createContextEngine"`, { plugin: name });
  }
  return (factory as ContextEngineFactory)(options);
}

function engineEntry(folder: string): string {
  const manifest = join(folder, 'package.json');
  if (existsSync(manifest)) {
    const main = (JSON.parse(readFileSync(manifest, 'utf8')) as { main?: unknown }).main;
    if (typeof main === 'string') return join(folder, main);
  }
  for (const candidate of ['index.js', 'index.mjs']) if (existsSync(join(folder, candidate))) return join(folder, candidate);
  return join(folder, 'index.js');
}
