import { DEFAULT_CONFIG } from './config-defaults.js';
import type { CtxhostConfig } from './config-schema.js';
import type { ContextEngine, ContextEngineFactory } from './context-engine.js';
import { createEnginePlugin } from './engine-plugin.js';
import { CORE_ERROR_CODES, CtxhostError } from './errors.js';
import { guardHooks } from './guard-hooks.js';
import { createHostHooks, WIRE_EVENTS, type HookFailedEvent, type ToastEvent } from './host-hooks.js';
import { createHostSession, type HostSession } from './host-session.js';
import { createHostTasks } from './host-tasks.js';
import type { Host, HostLogger } from './host.js';
import { createMemoryStore } from './memory-store.js';
import type { Plugin } from './plugin.js';
import { resolveContextEngine, resolveRegisteredEngine, type ResolveContextEngineOptions } from './resolve-context-engine.js';
import { createSessionMutex } from './session-mutex.js';
import type { SessionStore } from './session-store.js';
import type { Summarizer } from './summarizer.js';
import type { TokenCounter } from './token-counter.js';
import { createTokenCounter } from './create-token-counter.js';
import { BUILT_IN_HOOK_NAMES } from './config-schema.js';

/** A config given in code: any section may be partial; missing keys take DEFAULT_CONFIG's values. */
export type PartialConfig = { [K in keyof CtxhostConfig]?: CtxhostConfig[K] extends unknown[] ? CtxhostConfig[K] : Partial<CtxhostConfig[K]> };

export interface CreateHostOptions {
  config?: PartialConfig;
  plugins?: Plugin[];
  /** Engines by name, checked with the global registry. */
  engines?: Record<string, ContextEngineFactory>;
  /** The built-in engine used when `context.engine` names nothing else (the `ctxhost` package passes the compressor). */
  fallbackEngine?: { name: string; factory: ContextEngineFactory };
  /** An engine already resolved (by `createHostAsync`). */
  engine?: ContextEngine;
  store?: SessionStore;
  counter?: TokenCounter;
  summarizer?: Summarizer;
  logger?: HostLogger;
  /** Working directory for plugin folders. */
  cwd?: string;
  /** Core's engine plugin (runs the engine before each request); on unless false. */
  enginePlugin?: boolean;
}

/**
 * The plugin host. Its hook table is built by one factory and frozen; every
 * tap is guarded so a failing hook is reported (`hook.failed`), never fatal.
 */
export function createHost(options: CreateHostOptions = {}): Host {
  const config = withDefaults(options.config);
  const logger = options.logger ?? silentLogger;
  const hooks = Object.freeze(createHostHooks());
  const store = options.store ?? createMemoryStore();
  const counter = options.counter ?? createTokenCounter();
  const tasks = createHostTasks();
  const sessions = new Map<string, Promise<HostSession>>();
  const plugins: string[] = [];
  const pendingToasts: ToastEvent[] = [];
  let started = false;
  let disposed = false;

  guardHooks(hooks, (failure) => reportFailure(failure));
  const engine = options.engine ?? resolveEngineNow();

  function reportFailure(failure: HookFailedEvent): void {
    logger.error(`hook ${failure.hook} failed in plugin ${failure.plugin}`, { error: String(failure.error), sessionId: failure.sessionId });
    hooks.hookFailed.call(failure);
  }

  function resolveEngineNow(): ContextEngine {
    const resolved = resolveRegisteredEngine(config, engineOptions(options));
    if (resolved.notFound !== undefined) noticeMissingEngine(resolved.notFound, resolved.engine.name, []);
    return resolved.engine;
  }

  function noticeMissingEngine(name: string, using: string, searched: string[]): void {
    const where = searched.length > 0 ? ` Searched: ${searched.join(', ')}, and the engine registry.` : ' It is not in the engine registry.';
    const text = `context.engine "${name}" was not found, so the "${using}" engine is used.${where}`;
    logger.warn(text);
    pendingToasts.push({ level: 'warning', title: 'Context engine not found', text, source: 'context-engine' });
  }

  function assertLive(what: string): void {
    if (disposed) throw new CtxhostError(CORE_ERROR_CODES.hostDisposed, `cannot ${what}: the host was disposed`);
  }

  async function markStarted(): Promise<void> {
    if (started) return;
    started = true;
    for (const toast of pendingToasts.splice(0)) await hooks.toast.promise(toast);
  }

  async function openSession(id: string): Promise<HostSession> {
    const session = createHostSession({
      id,
      store,
      counter,
      mutex: createSessionMutex(),
      contextWindow: config.model.contextLength,
      onMessageUpdated: (message, usage) => host.emit('message.updated', { sessionId: id, message, ...(usage === undefined ? {} : { usage }) }),
      onCompaction: (report) => host.emit('compaction.completed', { sessionId: id, report }),
      onDelete: async () => {
        sessions.delete(id);
        tasks.abortSession(id);
        await host.emit('session.deleted', { sessionId: id });
      },
    });
    const events = await store.read(id);
    session.replay(events);
    if (events.length === 0) await host.emit('session.created', { sessionId: id });
    return session;
  }

  const host: Host = {
    hooks,
    config,
    store,
    counter,
    logger,
    tasks,
    engine,
    summarizer: options.summarizer,
    get plugins() {
      return plugins.slice();
    },
    session(id) {
      assertLive(`open session ${id}`);
      let session = sessions.get(id);
      if (session === undefined) {
        session = markStarted().then(() => openSession(id));
        sessions.set(id, session);
        session.catch(() => sessions.delete(id));
      }
      return session;
    },
    async emit(name, payload) {
      assertLive(`emit ${name}`);
      await markStarted();
      const key = WIRE_EVENTS[name];
      if (key === 'hookFailed') hooks.hookFailed.call(payload as HookFailedEvent);
      else await (hooks[key] as { promise(event: typeof payload): Promise<void> }).promise(payload);
    },
    toast: (toast) => host.emit('toast', toast),
    use(plugin) {
      if (started) {
        throw new CtxhostError(CORE_ERROR_CODES.pluginLate, `plugin "${plugin.name}" was added after the host started; add every plugin before the first session or event`, { plugin: plugin.name });
      }
      if (plugins.includes(plugin.name)) {
        throw new CtxhostError(CORE_ERROR_CODES.pluginDuplicate, `a plugin named "${plugin.name}" is already applied`, { plugin: plugin.name });
      }
      if (isDisabled(config, plugin.name)) {
        logger.debug(`plugin ${plugin.name} skipped: listed in disabled_hooks`);
        return;
      }
      plugin.apply(host);
      plugins.push(plugin.name);
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      await tasks.dispose();
      await store.close();
    },
  };

  if (options.enginePlugin !== false) host.use(createEnginePlugin());
  for (const plugin of options.plugins ?? []) host.use(plugin);
  return host;
}

/**
 * `createHost`, with `context.engine` also looked up in plugin folders
 * (`context_engine/<name>/` under each plugin directory), which needs an async import.
 */
export async function createHostAsync(options: CreateHostOptions = {}): Promise<Host> {
  if (options.engine !== undefined) return createHost(options);
  const config = withDefaults(options.config);
  const resolved = await resolveContextEngine(config, engineOptions(options));
  const host = createHost({ ...options, engine: resolved.engine });
  if (resolved.notFound !== undefined) {
    const text = `context.engine "${resolved.notFound}" was not found, so the "${resolved.engine.name}" engine is used. Searched: ${resolved.searched.join(', ')}, and the engine registry.`;
    host.logger.warn(text);
    await host.toast({ level: 'warning', title: 'Context engine not found', text, source: 'context-engine' });
  }
  return host;
}

function engineOptions(options: CreateHostOptions): ResolveContextEngineOptions {
  return {
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.engines === undefined ? {} : { engines: options.engines }),
    ...(options.fallbackEngine === undefined ? {} : { fallback: options.fallbackEngine }),
    ...(options.summarizer === undefined ? {} : { summarizer: options.summarizer }),
  };
}

function isDisabled(config: CtxhostConfig, name: string): boolean {
  return (BUILT_IN_HOOK_NAMES as readonly string[]).includes(name) && (config.disabledHooks as readonly string[]).includes(name);
}

/** Fills a partial config from DEFAULT_CONFIG, section by section. */
export function withDefaults(partial: PartialConfig = {}): CtxhostConfig {
  const merged = { ...DEFAULT_CONFIG } as Record<string, unknown>;
  for (const [key, value] of Object.entries(partial)) {
    const base = (DEFAULT_CONFIG as unknown as Record<string, unknown>)[key];
    merged[key] = isPlainObject(base) && isPlainObject(value) ? { ...base, ...value } : value;
  }
  const config = merged as unknown as CtxhostConfig;
  if (partial.auxiliary !== undefined) config.auxiliary = { compression: { ...DEFAULT_CONFIG.auxiliary.compression, ...partial.auxiliary.compression } };
  return config;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const silentLogger: HostLogger = { debug() {}, info() {}, warn() {}, error() {} };
