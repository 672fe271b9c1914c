import type { ContextEngine, ContextEngineFactory } from '../engines/context-engine.js';
import { createEnginePlugin } from './engine-plugin.js';
import { CORE_ERROR_CODES, CtxhostError } from '../errors.js';
import { guardHooks } from './guard-hooks.js';
import { assertKnownDisabledHooks, isDisabledHook, withDefaults, type PartialConfig } from '../config/host-config.js';
import {
  createHostHooks,
  WIRE_EVENTS,
  type HookFailedEvent,
  type ToastEvent,
  type WireEventName,
  type WireEventPayload,
} from './host-hooks.js';
import { createHostSession, type HostSession } from './host-session.js';
import { createHostTasks } from './host-tasks.js';
import { createIdleSessions, SESSION_RELEASE_DEFAULTS } from './idle-sessions.js';
import { runCompaction } from './run-compaction.js';
import type { Host, HostLogger } from './host.js';
import { createMemoryStore } from '../stores/memory-store.js';
import type { Plugin } from './plugin.js';
import {
  resolveContextEngine,
  resolveRegisteredEngine,
  type ResolveContextEngineOptions,
} from '../engines/resolve-context-engine.js';
import { createSessionMutex } from './session-mutex.js';
import type { SessionStore } from '../stores/session-store.js';
import type { CompactionReport } from '../model/compaction-report.js';
import type { EphemeralSeed } from './host.js';
import type { Summarizer } from '../model/summarizer.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { createTokenCounter } from '../tokens/create-token-counter.js';
import { resolveContextWindow } from './context-usage.js';

export { withDefaults, type PartialConfig } from '../config/host-config.js';

export interface CreateHostOptions {
  config?: PartialConfig;
  plugins?: Plugin[];
  /** Engines by name, checked with the global registry. */
  engines?: Record<string, ContextEngineFactory>;
  /** The built-in engine, used when `context.engine` names it (the `ctxhost` package passes the compressor). */
  fallbackEngine?: { name: string; factory: ContextEngineFactory };
  /** An engine already resolved (by `createHostAsync`). */
  engine?: ContextEngine;
  store?: SessionStore;
  counter?: TokenCounter;
  summarizer?: Summarizer;
  logger?: HostLogger;
  /** Working directory for plugin folders. */
  cwd?: string;
  /** The user plugins folder (default: the env-paths data folder of `ctxhost`, `/plugins`). */
  userPluginDir?: string;
  /** Also search `<cwd>/.ctxhost/plugins` for engines (off by default: plugin folders run code). */
  projectPlugins?: boolean;
  /** Told the file a plugin engine is about to be imported from. */
  onPluginLoad?: (info: { name: string; file: string }) => void;
  /** Core's engine plugin (runs the engine before each request); on unless false. */
  enginePlugin?: boolean;
}

/**
 * The plugin host. Its hook table is built by one factory and frozen; every
 * tap is guarded so a failing hook is reported (`hook.failed`), never fatal.
 * Runs without a config file: a missing key takes DEFAULT_CONFIG's value, and
 * the store is in memory unless one is given.
 */
export function createHost(options: CreateHostOptions = {}): Host {
  return buildHost(options, []);
}

/**
 * `createHost`, with `context.engine` also looked up in plugin folders
 * (`context_engine/<name>/` under each plugin directory), which needs an async import.
 */
export async function createHostAsync(options: CreateHostOptions = {}): Promise<Host> {
  if (options.engine !== undefined) return createHost(options);
  const resolved = await resolveContextEngine(withDefaults(options.config), engineOptions(options));
  if (resolved.file !== undefined)
    options.logger?.info(
      `context engine "${resolved.engine.name}" loaded from ${resolved.file} (plugin folders run code)`,
    );
  return buildHost({ ...options, engine: resolved.engine }, []);
}

/** `notices`: toasts for the person, held until the first session or event (so `use()` stays open until then). */
function buildHost(options: CreateHostOptions, notices: ToastEvent[]): Host {
  const config = withDefaults(options.config);
  assertKnownDisabledHooks(config);
  const logger = options.logger ?? silentLogger;
  const hooks = Object.freeze(createHostHooks());
  const store = options.store ?? createMemoryStore();
  const counter = options.counter ?? createTokenCounter();
  const tasks = createHostTasks();
  const sessions = new Map<string, Promise<HostSession>>();
  /** Sessions of the stateless path: held in memory only, each with a log of its own (never the host's store, no lock). */
  const ephemeral = new Map<string, HostSession>();
  /** The sessions `sessions` resolved to, so a deletion can mark them at once. */
  const openedSessions = new Map<string, HostSession>();
  const plugins: string[] = [];
  const idleSessions = createIdleSessions({
    idleMs: (config.store.releaseIdleAfterSeconds ?? SESSION_RELEASE_DEFAULTS.idleSeconds) * 1000,
    release: (id) => releaseSession(id),
    onError: (id, error) => logger.warn(`could not release idle session ${id}`, { error: String(error) }),
  });
  const pendingToasts = [...notices];
  let started = false;
  let disposed = false;

  guardHooks(hooks, (failure) => reportFailure(failure));
  const engine = options.engine ?? resolveEngineNow();
  for (const notice of pendingToasts) logger.warn(notice.text);

  function reportFailure(failure: HookFailedEvent): void {
    logger.error(`hook ${failure.hook} failed in plugin ${failure.plugin}`, {
      error: String(failure.error),
      sessionId: failure.sessionId,
    });
    hooks.hookFailed.call(failure);
  }

  function resolveEngineNow(): ContextEngine {
    return resolveRegisteredEngine(config, engineOptions(options)).engine;
  }

  function assertLive(what: string): void {
    if (disposed)
      throw new CtxhostError(CORE_ERROR_CODES.hostDisposed, `cannot ${what}: the host was disposed; create a new host`);
  }

  async function markStarted(): Promise<void> {
    if (started) return;
    started = true;
    for (const toast of pendingToasts.splice(0)) await hooks.toast.promise(toast);
  }

  /** Announces a change already written to the store; after dispose there is nobody left to tell. */
  async function announce<N extends WireEventName>(name: N, payload: WireEventPayload<N>): Promise<void> {
    if (!disposed) await host.emit(name, payload);
  }

  async function openSession(id: string): Promise<HostSession> {
    const session = newSession(id, store);
    const events = await store.read(id);
    session.replay(events);
    openedSessions.set(id, session);
    if (events.length === 0) await host.emit('session.created', { sessionId: id });
    return session;
  }

  function newSession(id: string, sessionStore: SessionStore, onDeleted?: () => void): HostSession {
    return createHostSession({
      id,
      store: sessionStore,
      counter,
      mutex: createSessionMutex(),
      contextWindow: resolveContextWindow(config),
      assertLive,
      onMessageUpdated: (message, usage) =>
        announce('message.updated', { sessionId: id, message, ...(usage === undefined ? {} : { usage }) }),
      onCompaction: (report) => announce('compaction.completed', { sessionId: id, report }),
      onDelete: async () => {
        onDeleted?.();
        forgetSession(id);
        await announce('session.deleted', { sessionId: id });
      },
    });
  }

  /**
   * A deleted session — here, or announced by another worker — is refused
   * further writes, its background work (a recovery) is aborted, and the next
   * `host.session(id)` starts afresh.
   */
  function forgetSession(id: string): void {
    openedSessions.get(id)?.markDeleted();
    openedSessions.delete(id);
    sessions.delete(id);
    idleSessions.forget(id);
    tasks.abortSession(id);
  }

  /**
   * Lets go of a session no one is using: forgotten here at once (so the next
   * `host.session(id)` reads it afresh, after the store let go), the old object
   * refuses writes, and the store closes what it holds for it.
   */
  async function releaseSession(id: string): Promise<boolean> {
    const session = openedSessions.get(id);
    if (session === undefined || disposed) return false;
    if (session.busy || tasks.hasSessionTasks(id)) return false;
    session.markReleased();
    openedSessions.delete(id);
    sessions.delete(id);
    idleSessions.forget(id);
    await store.release?.(id);
    return true;
  }

  /** Waits for every session operation under way, so the store is not closed under an append. */
  async function drainSessions(): Promise<void> {
    const opened = await Promise.allSettled([
      ...sessions.values(),
      ...[...ephemeral.values()].map(async (view) => view),
    ]);
    await Promise.allSettled(opened.flatMap((result) => (result.status === 'fulfilled' ? [result.value.drain()] : [])));
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
      const view = ephemeral.get(id);
      if (view !== undefined) return Promise.resolve(view);
      idleSessions.touch(id);
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
      if (name === 'session.deleted') forgetSession((payload as WireEventPayload<'session.deleted'>).sessionId);
      const key = WIRE_EVENTS[name];
      if (key === 'hookFailed') hooks.hookFailed.call(payload as HookFailedEvent);
      else await (hooks[key] as { promise(event: typeof payload): Promise<void> }).promise(payload);
      if (name === 'session.idle' && config.store.releaseOnSessionIdle === true)
        await releaseSession((payload as WireEventPayload<'session.idle'>).sessionId);
    },
    async ephemeralSession(id, seed) {
      assertLive(`open ephemeral session ${id}`);
      if (ephemeral.has(id) || sessions.has(id))
        throw new CtxhostError(
          CORE_ERROR_CODES.sessionExists,
          `session ${id} is already open; give each ephemeral session an id of its own`,
        );
      await markStarted();
      const viewStore = createMemoryStore({ copy: false });
      // The history in one step (no event object per message): a prompt handed over whole costs one pass.
      const history = seed?.history ?? [];
      const last = viewStore.seed(id, history);
      const session = newSession(id, viewStore, () => ephemeral.delete(id));
      session.seed(history, last);
      if (seed?.projection !== undefined)
        session.replay([
          await viewStore.append(id, {
            type: 'compaction.applied',
            projection: [...seed.projection],
            report: seededReport(seed),
          }),
        ]);
      ephemeral.set(id, session);
      return session;
    },
    releaseSession,
    toast: (toast) => host.emit('toast', toast),
    async compact(sessionId, options = {}) {
      assertLive(`compact session ${sessionId}`);
      return runCompaction(host, await host.session(sessionId), options);
    },
    use(plugin) {
      assertLive(`add plugin "${plugin.name}"`);
      if (started) {
        throw new CtxhostError(
          CORE_ERROR_CODES.pluginLate,
          `plugin "${plugin.name}" was added after the host started; add every plugin before the first session or event`,
          { plugin: plugin.name },
        );
      }
      if (plugins.includes(plugin.name)) {
        throw new CtxhostError(
          CORE_ERROR_CODES.pluginDuplicate,
          `a plugin named "${plugin.name}" is already applied; give each plugin its own name`,
          { plugin: plugin.name },
        );
      }
      if (isDisabledHook(config, plugin.name)) {
        logger.debug(`plugin ${plugin.name} skipped: listed in disabled_hooks`);
        return;
      }
      plugin.apply(host);
      plugins.push(plugin.name);
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      idleSessions.stop();
      await tasks.dispose();
      await drainSessions();
      await store.close();
    },
  };

  if (options.enginePlugin !== false) host.use(createEnginePlugin());
  for (const plugin of options.plugins ?? []) host.use(plugin);
  return host;
}

/** The report kept with a seeded projection (a compaction made earlier, maybe by another worker, adopted from the cache). */
function seededReport(seed: EphemeralSeed): CompactionReport {
  return {
    engine: 'stateless-cache',
    reason: 'manual',
    tokensBefore: 0,
    tokensAfter: 0,
    messagesBefore: seed.history.length,
    messagesAfter: seed.projection?.length ?? seed.history.length,
    notes: ['adopted from the compaction cache'],
  };
}

function engineOptions(options: CreateHostOptions): ResolveContextEngineOptions {
  return {
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.userPluginDir === undefined ? {} : { userPluginDir: options.userPluginDir }),
    ...(options.projectPlugins === undefined ? {} : { projectPlugins: options.projectPlugins }),
    ...(options.onPluginLoad === undefined ? {} : { onPluginLoad: options.onPluginLoad }),
    ...(options.engines === undefined ? {} : { engines: options.engines }),
    ...(options.fallbackEngine === undefined ? {} : { fallback: options.fallbackEngine }),
    ...(options.summarizer === undefined ? {} : { summarizer: options.summarizer }),
  };
}

const silentLogger: HostLogger = { debug() {}, info() {}, warn() {}, error() {} };
