import { createHash } from 'node:crypto';
import type { CompactionReport } from '../model/compaction-report.js';
import { CORE_ERROR_CODES, CtxhostError } from '../errors.js';
import { findTooDeep, tooDeepMessage } from '../model/json-depth.js';
import { MessageSchema, PartSchema, type Message, type Part } from '../model/message.js';
import { markAppendOnlyView } from './append-only-view.js';
import type { Session } from './session.js';
import type { SessionMutex } from './session-mutex.js';
import type { SessionStore, StoreEvent, StoredEvent } from '../stores/session-store.js';
import { StoreConflictError } from '../stores/store-conflict.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { createUsageTracker } from '../tokens/usage-tracker.js';
import type { Usage } from '../model/usage.js';

/** What a session needs from its host. */
export interface HostSessionContext {
  id: string;
  store: SessionStore;
  counter: TokenCounter;
  mutex: SessionMutex;
  contextWindow: number | undefined;
  /** Throws (CTXHOST_HOST_DISPOSED) once the host is disposed; checked before every write. */
  assertLive?(what: string): void;
  onMessageUpdated(message: Message, usage: Usage | undefined): Promise<void>;
  onCompaction(report: CompactionReport): Promise<void>;
  onDelete(): Promise<void>;
}

export interface HostSession extends Session {
  /** Applies a stored event to memory (used when replaying the log on open). */
  replay(events: readonly StoredEvent[]): void;
  /**
   * Starts an empty session with `messages` as its history and projection, `last` being the log's event of
   * the last one (a memory store's `seed`): O(1) per message, no event objects. The list is copied, not its messages.
   */
  seed(messages: readonly Message[], last: StoredEvent | undefined): void;
  /** Resolves once every operation queued on the session's lock has finished (the host's dispose waits for it). */
  drain(): Promise<void>;
  /** Refuses every later write: the session was deleted elsewhere (another worker announced `session.deleted`). */
  markDeleted(): void;
  /** Refuses every later write: the host let go of this session (idle); `host.session(id)` gives a fresh one. */
  markReleased(): void;
  /** True while an operation holds or waits for the session's lock. */
  readonly busy: boolean;
}

/**
 * A session over an append-only store: every change is written to the store
 * first (durable before acknowledged), then applied in memory, then announced.
 * `history` keeps every message as appended; `messages()` is the projection.
 */
export function createHostSession(context: HostSessionContext): HostSession {
  let history: Message[] = [];
  // Only ever appended to in place: `messages()` hands it out as a view (see append-only-view.ts).
  let projection: Message[] = markAppendOnlyView([]);
  let lastUsage: Usage | undefined;
  let tracker = createUsageTracker(context.counter);
  const view = createViewHead();

  const apply = (event: StoreEvent): void => {
    switch (event.type) {
      case 'message.appended':
        history.push(event.message);
        projection.push(event.message);
        return;
      case 'part.updated':
        projection = markAppendOnlyView(
          projection.map((message) => (message.id === event.messageId ? replacePart(message, event.part) : message)),
        );
        return;
      case 'reverted':
        projection = markAppendOnlyView(projection.slice(0, indexOrThrow(projection, event.toMessageId) + 1));
        return;
      case 'compaction.applied':
        projection = markAppendOnlyView([...event.projection]);
        return;
      case 'usage.reported':
        lastUsage = event.usage;
        if (projection.at(-1)?.id === event.afterMessageId) tracker.report(event.usage, projection);
        return;
    }
  };

  let deleted = false;
  let released = false;
  const assertLive = (what: string): void => {
    context.assertLive?.(`${what} in session ${context.id}`);
    if (deleted)
      throw new CtxhostError(
        CORE_ERROR_CODES.sessionNotFound,
        `cannot ${what}: session ${context.id} was deleted; open it again with host.session(id) to start a new one`,
      );
    if (released)
      throw new CtxhostError(
        CORE_ERROR_CODES.sessionReleased,
        `cannot ${what}: session ${context.id} was released after sitting idle; get it again with host.session(id) (nothing was lost)`,
      );
  };
  /** The id of the last event this session knows is stored: each event id is chained from it. */
  let lastEventId: string | undefined;
  const record = async (event: StoreEvent, expectedSeq?: number): Promise<void> => {
    assertLive(`record ${event.type}`);
    const stored = await context.store.append(context.id, event, {
      eventId: chainedEventId(lastEventId, event),
      ...(expectedSeq === undefined ? {} : { expectedSeq }),
    });
    lastEventId = stored.eventId;
    view.stored(stored.seq);
    apply(event);
  };
  const replay = (events: readonly StoredEvent[]): void => {
    for (const event of events) apply(event);
    if (events.length > 0) {
      lastEventId = events.at(-1)!.eventId;
      view.readTo(events.at(-1)!.seq);
    }
  };
  /** Rebuilds memory from the store's log: what another writer appended is in the view again. */
  const reload = async (): Promise<void> => {
    const events = await context.store.read(context.id);
    history = [];
    projection = markAppendOnlyView([]);
    lastUsage = undefined;
    tracker = createUsageTracker(context.counter);
    lastEventId = undefined;
    view.reset();
    replay(events);
  };

  const seed = (messages: readonly Message[], last: StoredEvent | undefined): void => {
    if (history.length > 0 || lastEventId !== undefined)
      throw new CtxhostError(
        CORE_ERROR_CODES.sessionExists,
        `session ${context.id} already has messages; only an empty one can be seeded`,
      );
    history = messages.slice();
    projection = markAppendOnlyView(messages.slice());
    if (last !== undefined) {
      lastEventId = last.eventId;
      view.readTo(last.seq);
    }
  };

  const session: HostSession = {
    id: context.id,
    contextWindow: context.contextWindow,
    replay,
    seed,
    async drain() {
      await context.mutex.run(async () => undefined);
    },
    markDeleted() {
      deleted = true;
    },
    markReleased() {
      released = true;
    },
    get busy() {
      return context.mutex.busy;
    },
    async append(message, options = {}) {
      assertLive('append a message');
      const valid = validated(MessageSchema, message, `message ${message?.id ?? '(no id)'}`);
      await context.mutex.run(async () => {
        if (options.usage !== undefined)
          await record({ type: 'usage.reported', usage: options.usage, afterMessageId: projection.at(-1)?.id });
        await record({
          type: 'message.appended',
          message: valid,
          ...(options.originals === undefined ? {} : { originals: options.originals }),
        });
      });
      await context.onMessageUpdated(valid, options.usage);
    },
    async update(partId, change, reason) {
      assertLive(`update part ${partId}`);
      const updated = await context.mutex.run(async () => {
        const message = projection.find((candidate) => candidate.parts.some((part) => part.id === partId));
        const part = message?.parts.find((candidate) => candidate.id === partId);
        if (message === undefined || part === undefined)
          throw new CtxhostError(
            CORE_ERROR_CODES.partNotFound,
            `session ${context.id}: no part ${partId} in what the model sees; it may have been compacted or reverted`,
          );
        const next = validated(PartSchema, { ...part, ...change, id: part.id, type: part.type }, `part ${partId}`);
        await record({ type: 'part.updated', messageId: message.id, partId, part: next, reason });
        return replacePart(message, next);
      });
      await context.onMessageUpdated(updated, undefined);
    },
    async revert(toMessageId) {
      assertLive(`revert to ${toMessageId}`);
      return context.mutex.run(async () => {
        const removed = projection.slice(indexOrThrow(projection, toMessageId) + 1);
        await record({ type: 'reverted', toMessageId, removedMessageIds: removed.map((message) => message.id) });
        return removed;
      });
    },
    async applyCompaction(messages, report) {
      assertLive('apply a compaction');
      const valid = messages.map((message) =>
        validated(MessageSchema, message, `compacted message ${message?.id ?? '(no id)'}`),
      );
      await context.mutex.run(async () => {
        try {
          // Only on the view it was computed from: another host's turns appended since would vanish behind it.
          await record({ type: 'compaction.applied', projection: valid, report }, view.head());
        } catch (error) {
          if (!(error instanceof StoreConflictError)) throw error;
          await reload();
          throw new CtxhostError(
            CORE_ERROR_CODES.sessionStale,
            `session ${context.id}: the compaction was computed on an out-of-date view (it ended at event ${error.expectedSeq}; another writer had taken the session to ${error.actualSeq}) and was not applied; the session now shows what the store holds: compact again`,
            { cause: error },
          );
        }
      });
      await context.onCompaction(report);
    },
    async reportUsage(usage) {
      assertLive('report usage');
      await context.mutex.run(() => record({ type: 'usage.reported', usage, afterMessageId: projection.at(-1)?.id }));
    },
    reportCount(tokens) {
      tracker.report(
        { inputTokens: tokens, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
        projection,
      );
    },
    messages: () => projection,
    history: () => history.slice(),
    promptSize: () => tracker.promptSize(projection),
    lastUsage: () => lastUsage,
    original: (partId) => context.store.original(context.id, partId),
    async recordEvent(event) {
      view.stored((await context.store.append(context.id, event)).seq);
    },
    exclusive: (fn) => context.mutex.run(fn),
    async delete() {
      if (deleted) return;
      assertLive('delete');
      const removed = await context.mutex.run(async () => {
        if (deleted) return false;
        assertLive('delete');
        await context.store.delete(context.id);
        deleted = true;
        return true;
      });
      if (removed) await context.onDelete();
    },
  };
  return session;
}

/**
 * The last seq up to which this session's memory holds every event of the
 * store's log: what a compaction's compare-and-set expects. Its own writes can
 * complete out of order (an observation event beside a turn), so seqs above
 * the head wait until the gap below them is filled; a gap that stays is an
 * event another writer appended, and the head stays below it.
 */
function createViewHead() {
  let head = 0;
  const ahead = new Set<number>();
  return {
    head: () => head,
    stored(seq: number): void {
      if (seq <= head) return;
      ahead.add(seq);
      while (ahead.delete(head + 1)) head += 1;
    },
    readTo(seq: number): void {
      head = seq;
      ahead.clear();
    },
    reset(): void {
      head = 0;
      ahead.clear();
    },
  };
}

/**
 * An event's id: a hash of the previous stored event's id and the event
 * itself. A caller retrying a write whose outcome it never learnt (a lost
 * reply: the store has the event, this session does not) sends the same event
 * after the same predecessor, so the store finds the id and stores it once;
 * the same event written again after it was acknowledged follows another
 * predecessor, so it gets another id and is stored again, as asked.
 */
export function chainedEventId(previous: string | undefined, event: StoreEvent): string {
  return `h-${createHash('sha256')
    .update(previous ?? '')
    .update('\n')
    .update(JSON.stringify(event))
    .digest('hex')
    .slice(0, 40)}`;
}

function replacePart(message: Message, part: Part): Message {
  return { ...message, parts: message.parts.map((candidate) => (candidate.id === part.id ? part : candidate)) };
}

function indexOrThrow(messages: readonly Message[], messageId: string): number {
  const index = messages.findIndex((message) => message.id === messageId);
  if (index < 0)
    throw new CtxhostError(CORE_ERROR_CODES.messageNotFound, `no message ${messageId} in what the model sees`);
  return index;
}

function validated<T>(
  schema: {
    safeParse(
      value: unknown,
    ): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
  },
  value: unknown,
  what: string,
): T {
  const tooDeep = findTooDeep(value);
  if (tooDeep !== undefined) throw new CtxhostError(CORE_ERROR_CODES.messageInvalid, tooDeepMessage(what, tooDeep));
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues
    .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
  throw new CtxhostError(CORE_ERROR_CODES.messageInvalid, `${what} is not a valid ctxhost message: ${problems}`);
}
