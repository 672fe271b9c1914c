import { AsyncSeriesBailHook, AsyncSeriesHook, AsyncSeriesWaterfallHook, SyncHook } from 'tapable';
import type { CompactionReport } from '../model/compaction-report.js';
import type { Message, ToolResultPart } from '../model/message.js';
import type { ModelRequest } from '../model/model-client.js';
import type { ProviderError } from '../model/provider-error.js';
import type { Usage } from '../model/usage.js';

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
}

export interface SessionDeletedEvent {
  sessionId: string;
}

export interface CompactionCompletedEvent {
  sessionId: string;
  report: CompactionReport;
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
    /** Transforms each tool result as it arrives (the truncator). Returns the part to store in the projection. */
    toolResult: new AsyncSeriesWaterfallHook<[ToolResultPart, ToolResultContext]>(['part', 'context']),
  };
}

export type HostHooks = ReturnType<typeof createHostHooks>;
export type HostHookKey = keyof HostHooks;

/** Wire names (as opencode and the seeds spell them) to hook keys. The one place they meet. */
export const WIRE_EVENTS = {
  'session.created': 'sessionCreated',
  'message.updated': 'messageUpdated',
  'session.error': 'sessionError',
  'session.idle': 'sessionIdle',
  'session.deleted': 'sessionDeleted',
  'compaction.completed': 'compactionCompleted',
  toast: 'toast',
  'hook.failed': 'hookFailed',
} as const satisfies Record<string, HostHookKey>;

export type WireEventName = keyof typeof WIRE_EVENTS;

/** The payload type of a wire event. */
export type WireEventPayload<N extends WireEventName> =
  HostHooks[(typeof WIRE_EVENTS)[N]] extends AsyncSeriesHook<[infer P]> | SyncHook<[infer P]> ? P : never;
