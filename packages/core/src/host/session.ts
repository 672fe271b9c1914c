import type { CompactionReport } from '../model/compaction-report.js';
import type { Message, Part } from '../model/message.js';
import type { PromptSize } from '../tokens/token-counter.js';
import type { Usage } from '../model/usage.js';
import type { StoreEvent } from '../stores/session-store.js';

/** Events kept for observability only: replaying them changes nothing. */
export type ObservationEvent = Extract<StoreEvent, { type: 'compaction.started' | 'compaction.failed' }>;

/** A change to one part: fields to replace (the part's `type` and `id` stay). */
export type PartChange = Partial<Omit<Part, 'id' | 'type'>> & Record<string, unknown>;

/**
 * One conversation. Operations are serialized per session (a lock), so a
 * recovery never races a turn; the lock is re-entrant within `exclusive`.
 */
export interface Session {
  readonly id: string;
  /** The model's window for this session, when known (config `model.context_length` or the model client). */
  contextWindow: number | undefined;
  /**
   * Appends a message to history and projection; emits `message.updated`.
   * `usage`: the API-reported usage of the request that produced it.
   * `originals`: parts as they arrived before a `toolResult` tap shortened them, kept for `original()`.
   */
  append(message: Message, options?: { usage?: Usage; originals?: Part[] }): Promise<void>;
  /** Changes a part in the projection; the original stays retrievable through `original`. */
  update(partId: string, change: PartChange, reason: string): Promise<void>;
  /** Removes every message after `toMessageId` from the projection (they stay in the store). Returns what was removed. */
  revert(toMessageId: string): Promise<Message[]>;
  /** Replaces the projection with a compaction's result and emits `compaction.completed`. */
  applyCompaction(messages: Message[], report: CompactionReport): Promise<void>;
  /** Records an API-reported usage for the current projection. */
  reportUsage(usage: Usage): Promise<void>;
  /**
   * An exact size of the current projection from the provider's count-tokens
   * endpoint: `promptSize()` answers it (source `reported`) until the projection
   * changes. Not a usage: nothing is stored or billed.
   */
  reportCount?(tokens: number): void;
  /**
   * What the model will see: a read-only view, not a copy (O(1) per call). The session only ever
   * appends to a list it handed out (appends extend it); any other change (update, revert,
   * compaction) gives a new list. Take `.slice()` for a snapshot to hold across an append.
   */
  messages(): readonly Message[];
  /** Every message ever appended, unmodified, in order. */
  history(): Message[];
  /** Current prompt size: last reported usage plus an estimate of what was added since. */
  promptSize(): PromptSize;
  /** The last API-reported usage, if any. */
  lastUsage(): Usage | undefined;
  /** A part as first appended. */
  original(partId: string): Promise<Part | undefined>;
  /**
   * Writes an event that changes nothing the model sees (`compaction.started`, `compaction.failed`) to the
   * session's own log: the host's store, or an ephemeral session's memory. Optional for sessions made elsewhere.
   */
  recordEvent?(event: ObservationEvent): Promise<void>;
  /** Runs `fn` holding the session's lock (turns and recoveries use it). */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  /** Deletes the session from the store and emits `session.deleted`. */
  delete(): Promise<void>;
}
