import {
  createFileStore,
  createHostAsync,
  createMemoryStore,
  CtxhostError,
  CORE_ERROR_CODES,
  loadConfig,
  withDefaults,
  type ContextEngineFactory,
  type CtxhostConfig,
  type Host,
  type HostLogger,
  type PartialConfig,
  type Plugin,
  type SessionStore,
  type Summarizer,
  type TokenCounter,
} from '@ctxhost/core';
import { createAutoCompactPlugin } from '@ctxhost/auto-compact';
import { compressorEngineFactory } from '@ctxhost/compressor';
import { createContextWindowMonitor } from '@ctxhost/context-window-monitor';
import { createPreemptiveCompaction } from '@ctxhost/preemptive-compaction';
import {
  createNativeCompactionPlugin,
  isNativeCompactionOn,
  readNativeCompactionConfig,
  withServerFirst,
} from '@ctxhost/native-compaction';
import { createPromptCachingPlugin } from '@ctxhost/prompt-caching';
import { createSessionHygiene } from '@ctxhost/session-hygiene';
import { createToolOutputTruncator } from '@ctxhost/tool-output-truncator';
import { builtInConfigSections } from './built-in-config-sections.js';
import { reportConfigWarnings } from './report-config-warnings.js';

export interface DefaultHostOptions {
  config?: PartialConfig;
  /** Where plugin folders and the project config are looked up. */
  cwd?: string;
  /** A store of your own (PostgreSQL, …); by default the one `store.kind` names. */
  store?: SessionStore;
  summarizer?: Summarizer;
  counter?: TokenCounter;
  logger?: HostLogger;
  /** Plugins added after the built-in ones. */
  plugins?: Plugin[];
  /** Engines by name, over the registered ones and plugin folders (`context.engine` picks one). */
  engines?: Record<string, ContextEngineFactory>;
  /** Built-in plugins configured your way: each replaces the default one of the same name (e.g. `createAutoCompactPlugin({ plan: false })`). */
  builtIns?: Plugin[];
  /** Also look for engines in `<cwd>/.ctxhost/plugins` (off by default: plugin folders run code). */
  projectPlugins?: boolean;
  /** Told the file a plugin engine is about to be imported from. */
  onPluginLoad?: (info: { name: string; file: string }) => void;
}

/** Every built-in hook, in the order they are applied. `disabled_hooks` skips any of them by name. */
export function builtInPlugins(): Plugin[] {
  return [
    createContextWindowMonitor(),
    createPreemptiveCompaction(),
    createToolOutputTruncator(),
    createSessionHygiene(),
    createPromptCachingPlugin(),
    createNativeCompactionPlugin(),
    createAutoCompactPlugin(),
  ];
}

/**
 * The host most users want: every built-in hook, the compressor as the
 * default engine, the store the config names (files under the env-paths data
 * folder by default), and engines from plugin folders.
 */
export async function createDefaultHost(options: DefaultHostOptions = {}): Promise<Host> {
  const config = withDefaults(options.config);
  return createHostAsync({
    config,
    store: options.store ?? storeFor(config),
    fallbackEngine: { name: 'compressor', factory: serverFirstWhenOn(config) },
    plugins: [...withReplacements(builtInPlugins(), options.builtIns ?? []), ...(options.plugins ?? [])],
    ...(options.engines === undefined ? {} : { engines: options.engines }),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.summarizer === undefined ? {} : { summarizer: options.summarizer }),
    ...(options.counter === undefined ? {} : { counter: options.counter }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.projectPlugins === undefined ? {} : { projectPlugins: options.projectPlugins }),
    ...(options.onPluginLoad === undefined ? {} : { onPluginLoad: options.onPluginLoad }),
  });
}

/**
 * Reads `.ctxhost/config.yaml` (over the user's config) from `cwd`, then builds
 * the default host. The config's warnings go to `logger`, else once to stderr.
 */
export async function loadDefaultHost(options: Omit<DefaultHostOptions, 'config'> & { cwd: string }): Promise<Host> {
  // projectPlugins is the person's word that this project may run code: its config's plugin settings count too.
  const { config, warnings } = await loadConfig({
    cwd: options.cwd,
    sections: builtInConfigSections(),
    ...(options.projectPlugins === true ? { trustProject: true } : {}),
  });
  reportConfigWarnings(warnings, options.logger);
  return createDefaultHost({ ...options, config });
}

/** With `hooks.native-compaction` on, the compressor compacts only as the fallback (`withServerFirst`), so the provider acts first. */
function serverFirstWhenOn(config: CtxhostConfig): ContextEngineFactory {
  const section = readNativeCompactionConfig({ config, logger: silentLogger }, undefined);
  if (!isNativeCompactionOn(section)) return compressorEngineFactory;
  return (options) =>
    withServerFirst(compressorEngineFactory(options), { fallbackThreshold: section.client_fallback_threshold });
}

// The plugin reads the same section and says what it has to say (a deprecated key) once; this read stays quiet.
const silentLogger: HostLogger = { debug() {}, info() {}, warn() {}, error() {} };

function withReplacements(defaults: Plugin[], replacements: Plugin[]): Plugin[] {
  const byName = new Map(replacements.map((plugin) => [plugin.name, plugin]));
  const extra = replacements.filter((plugin) => !defaults.some((candidate) => candidate.name === plugin.name));
  return [...defaults.map((plugin) => byName.get(plugin.name) ?? plugin), ...extra];
}

function storeFor(config: CtxhostConfig): SessionStore {
  if (config.store.kind === 'memory') return createMemoryStore();
  if (config.store.kind === 'file')
    return createFileStore(config.store.path === undefined ? {} : { directory: config.store.path });
  throw new CtxhostError(
    CORE_ERROR_CODES.configInvalid,
    'store.kind is "postgres": create the store with @ctxhost/store-postgres and pass it as `store`',
  );
}
