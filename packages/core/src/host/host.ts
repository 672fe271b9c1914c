import type { CtxhostConfig } from '../config/config-schema.js';
import type { ContextEngine } from '../engines/context-engine.js';
import type { HostHooks, ToastEvent, WireEventName, WireEventPayload } from './host-hooks.js';
import type { Plugin } from './plugin.js';
import type { CompactOptions, CompactOutcome } from './run-compaction.js';
import type { Session } from './session.js';
import type { SessionStore } from '../stores/session-store.js';
import type { Summarizer } from '../model/summarizer.js';
import type { Message } from '../model/message.js';
import type { TokenCounter } from '../tokens/token-counter.js';

export interface HostLogger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

/** Background work a hook starts (a delayed retry, a recovery). The host cancels it on `dispose()` and on `session.deleted`. */
export interface HostTasks {
  /** Runs `fn` tracked; its signal aborts on dispose or when the session is deleted. */
  run<T>(name: string, sessionId: string | undefined, fn: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** A cancellable delay (rejects with an AbortError when cancelled). */
  delay(ms: number, signal: AbortSignal): Promise<void>;
}

/** What an ephemeral session starts with: its history, and what the model sees when that differs (a cached compaction). */
export interface EphemeralSeed {
  history: readonly Message[];
  projection?: readonly Message[];
}

export interface Host {
  readonly hooks: HostHooks;
  readonly config: CtxhostConfig;
  readonly store: SessionStore;
  readonly counter: TokenCounter;
  readonly logger: HostLogger;
  readonly tasks: HostTasks;
  /** The active context engine (resolved from `context.engine`). */
  readonly engine: ContextEngine;
  /** The summarizer engines use, when one is configured. */
  readonly summarizer: Summarizer | undefined;
  /** Opens (or creates) a session; emits `session.created` for a new one. */
  session(id: string): Promise<Session>;
  /**
   * Lets go of an open session now (its memory here, and the store's file
   * handle, lock and index), unless an operation or a background task of it is
   * under way; resolves whether it was released. `host.session(id)` opens it
   * again from the store. Idle sessions are released on their own after
   * `store.release_idle_after` seconds.
   */
  releaseSession(id: string): Promise<boolean>;
  /**
   * Opens a session held in memory only: its log is its own (never the host's
   * store, no lock), `host.session(id)` answers it while it lives, every hook
   * runs on it as on any session, and `delete()` ends it. The stateless path's
   * view of a caller's prompt (`createStatelessContext`). `seed`: what it starts
   * with, without `message.updated` for each (the history, and the projection
   * when it is not the history).
   */
  ephemeralSession(id: string, seed?: EphemeralSeed): Promise<Session>;
  /** Emits a wire event to its hook; a throwing tap is reported as `hook.failed`, never rethrown. */
  emit<N extends WireEventName>(name: N, payload: WireEventPayload<N>): Promise<void>;
  /**
   * Compacts a session now with the active engine (`reason: manual` unless given):
   * `focus` and `instructions` reach the summarizer; `compaction.before` taps can
   * add to them or veto. Resolves with how it ended; only `completed` changed the session.
   */
  compact(sessionId: string, options?: CompactOptions): Promise<CompactOutcome>;
  /** Shorthand for emitting a `toast`. */
  toast(toast: ToastEvent): Promise<void>;
  /** Adds a plugin; an error after the first event. */
  use(plugin: Plugin): void;
  /** Names of the plugins applied (disabled built-ins are absent). */
  readonly plugins: readonly string[];
  /** Cancels and awaits hook work, closes the store. */
  dispose(): Promise<void>;
}
