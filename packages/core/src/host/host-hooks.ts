import { AsyncSeriesBailHook, AsyncSeriesHook, AsyncSeriesWaterfallHook, SyncHook } from 'tapable';
import type { CompactionReason, CompactionReport } from '../model/compaction-report.js';
import type { Message, ToolResultPart } from '../model/message.js';
import type { ModelRequest } from '../model/model-client.js';
import type { ProviderError } from '../model/provider-error.js';
import type { Usage } from '../model/usage.js';
import type { RehydratedFile, RehydrateRequest } from '../fidelity/rehydration.js';

export interface SessionCreatedEvent {
  sessionId: string;
}

/** A message was appended or changed. `usage` is set when it came with an API-reported usage. */
export interface MessageUpdatedEvent {
  sessionId: string;
  message: Message;
  usage?: Usage;
}

/** A model call failed. `error` is normalised; `raw` is what was thrown. */
export interface SessionErrorEvent {
  sessionId: string;
  error: ProviderError;
  raw: unknown;
}

/** The session finished a turn (successfully or not) and waits for input. */
export interface SessionIdleEvent {
  sessionId: string;
  /** The caller's signal for the turn that went idle: work started for it (a recovery, its backoff) stops when it aborts. */
  signal?: AbortSignal;
}

export interface SessionDeletedEvent {
  sessionId: string;
}

export interface CompactionCompletedEvent {
  sessionId: string;
  report: CompactionReport;
}

/**
 * What a compaction is about to do, before it starts: `compaction.before` taps
 * transform it. A tap adds `instructions` for the summarizer (a focus, things
 * to keep) or sets `veto` to stop this compaction; a later tap sees both.
 */
export interface CompactionPlan {
  sessionId: string;
  reason: CompactionReason;
  /** What the summary should concentrate on (`compact(id, { focus })`, Hermes `/compress <focus>`). */
  focus?: string;
  /** Extra instructions for the summarizer, in order. */
  instructions: string[];
  /** Set by a tap to stop this compaction: who and why. Reported as `compaction.failed` with `vetoed: true`. */
  veto?: { by: string; why: string };
}

/** A compaction started (after `compaction.before`). Kept in the store as `compaction.started`. */
export interface CompactionStartedEvent {
  sessionId: string;
  reason: CompactionReason;
  engine: string;
  focus?: string;
  tokensBefore: number;
  messagesBefore: number;
}

/**
 * A compaction did not change the session: vetoed, the engine threw, or it
 * saved nothing. Kept in the store as `compaction.failed`.
 */
export interface CompactionFailedEvent {
  sessionId: string;
  reason: CompactionReason;
  engine: string;
  /** From `compaction.started` to the failure (0 for a veto: nothing started). */
  durationMs: number;
  /** What went wrong, in words. */
  error: string;
  vetoed?: boolean;
}

export type ToastLevel = 'info' | 'success' | 'warning' | 'error';

/** A message for the person (not the model). */
export interface ToastEvent {
  sessionId?: string;
  level: ToastLevel;
  title: string;
  text: string;
  /** The plugin that raised it. */
  source: string;
}

export interface HookFailedEvent {
  /** The hook key (`messageUpdated`). */
  hook: string;
  /** The plugin whose tap threw. */
  plugin: string;
  sessionId?: string;
  error: unknown;
}

/** What request-side taps know about the request they transform. */
export interface RequestContext {
  sessionId: string;
  contextWindow: number | undefined;
  signal?: AbortSignal;
}

/** A request to send a session to the model again (after a recovery), without a new user message. */
export interface ResendEvent {
  sessionId: string;
  reason: string;
  signal?: AbortSignal;
}

export interface ToolResultContext {
  sessionId: string;
  toolName: string;
  messageId: string;
}

/** Named stages for `beforeRequest` taps: compaction first, caching last. */
export const REQUEST_STAGE = {
  engine: 0,
  hygiene: 10,
  preemptive: 20,
  caching: 100,
} as const;

/**
 * The host's hook table. Built by one factory, frozen by the host; every tap
 * keeps its payload type.
 */
export function createHostHooks() {
  return {
    /** `session.created`: observers. */
    sessionCreated: new AsyncSeriesHook<[SessionCreatedEvent]>(['event']),
    /** `message.updated`: observers (monitor, preemptive notice, auto-compact). */
    messageUpdated: new AsyncSeriesHook<[MessageUpdatedEvent]>(['event']),
    /** `session.error`: observers (auto-compact marks the session pending). */
    sessionError: new AsyncSeriesHook<[SessionErrorEvent]>(['event']),
    /** `session.idle`: observers (auto-compact runs its cascade). */
    sessionIdle: new AsyncSeriesHook<[SessionIdleEvent]>(['event']),
    /** `session.deleted`: observers; every hook drops that session's state. */
    sessionDeleted: new AsyncSeriesHook<[SessionDeletedEvent]>(['event']),
    /** `compaction.completed`: observers (the monitor re-arms, reports). */
    compactionCompleted: new AsyncSeriesHook<[CompactionCompletedEvent]>(['event']),
    /** `compaction.before`: transforms the plan of a compaction (adds instructions, or vetoes it). Returns the plan to carry out. */
    compactionBefore: new AsyncSeriesWaterfallHook<[CompactionPlan]>(['plan']),
    /** `compaction.started`: observers (timing, progress). */
    compactionStarted: new AsyncSeriesHook<[CompactionStartedEvent]>(['event']),
    /** `compaction.failed`: observers; the compaction was vetoed, threw, or saved nothing, and the session is unchanged. */
    compactionFailed: new AsyncSeriesHook<[CompactionFailedEvent]>(['event']),
    /** `toast`: observers that show the person a message (CLI, logger). */
    toast: new AsyncSeriesHook<[ToastEvent]>(['event']),
    /** `hook.failed`: observers; a tap threw and the host carried on. */
    hookFailed: new SyncHook<[HookFailedEvent]>(['event']),
    /** Transforms the outgoing request (engine, hygiene, caching). Returns the request to send. */
    beforeRequest: new AsyncSeriesWaterfallHook<[ModelRequest, RequestContext]>(['request', 'context']),
    /**
     * Asks whoever drives the session (the agent loop, a wrapper, the opencode bridge) to send it
     * to the model again. Bail: the first tap that drives this session returns true; undefined means "not mine".
     */
    resend: new AsyncSeriesBailHook<[ResendEvent], boolean | undefined>(['event']),
    /**
     * After a compaction, asks whoever drives the session (the agent loop, opencode) for the current content of
     * files it touched. Bail: the host that can read this session's files returns them; undefined means "not mine".
     */
    rehydrate: new AsyncSeriesBailHook<[RehydrateRequest], RehydratedFile[] | undefined>(['request']),
    /** Transforms each tool result as it arrives (the truncator). Returns the part to store in the projection. */
    toolResult: new AsyncSeriesWaterfallHook<[ToolResultPart, ToolResultContext]>(['part', 'context']),
  };
}

export type HostHooks = ReturnType<typeof createHostHooks>;
export type HostHookKey = keyof HostHooks;

/** Wire names (as opencode and oh-my-opencode spell them) to hook keys. The one place they meet. */
export const WIRE_EVENTS = {
  'session.created': 'sessionCreated',
  'message.updated': 'messageUpdated',
  'session.error': 'sessionError',
  'session.idle': 'sessionIdle',
  'session.deleted': 'sessionDeleted',
  'compaction.completed': 'compactionCompleted',
  'compaction.before': 'compactionBefore',
  'compaction.started': 'compactionStarted',
  'compaction.failed': 'compactionFailed',
  toast: 'toast',
  'hook.failed': 'hookFailed',
} as const satisfies Record<string, HostHookKey>;

export type WireEventName = keyof typeof WIRE_EVENTS;

/** The payload type of a wire event. */
export type WireEventPayload<N extends WireEventName> = HostHooks[(typeof WIRE_EVENTS)[N]] extends
  AsyncSeriesHook<[infer P]> | SyncHook<[infer P]> | AsyncSeriesWaterfallHook<[infer P]>
  ? P
  : never;
