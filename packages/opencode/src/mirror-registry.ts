import type { CompactionReason } from '@ctxhost/core';
import type { Part as OpencodePart, UserMessage } from '@opencode-ai/sdk';
import type { OpencodeModelRef, OpencodePrompt } from './opencode-actions.js';
import type { ShortenedOutput } from './to-ctxhost-messages.js';

/** What the bridge knows about one opencode session while it mirrors it into ctxhost. */
export interface MirrorState {
  /** Parts seen on `message.part.updated`, by message, until the message is mirrored. */
  parts: Map<string, Map<string, OpencodePart>>;
  /** User messages seen, waiting for their parts (they are mirrored when the reply starts). */
  users: Map<string, UserMessage>;
  /** opencode message ids already appended to the ctxhost session. */
  mirrored: Set<string>;
  /**
   * Replies seen before they completed, until mirrored. When the turn ends (`session.idle`) with one still here,
   * its completing `message.updated` has not reached the plugin (late under load, or never), so opencode's stored
   * copy is mirrored instead: the monitor and preemptive compaction then see the turn's usage.
   */
  unfinished: Set<string>;
  /** The last user prompt, for re-sending it after a recovery. */
  lastPrompt: OpencodePrompt | undefined;
  /** The user message whose reply failed (an overflow, …), until a reply succeeds. */
  failedPrompt: string | undefined;
  /** A failed prompt already reverted in opencode (before its summarize), waiting to be re-sent. */
  withdrawnPrompt: string | undefined;
  /** The model the session talks to, for opencode's summarize. */
  model: OpencodeModelRef | undefined;
  /** Tool outputs the truncator shortened, by call id, until their message is mirrored. */
  shortened: Map<string, ShortenedOutput>;
  /** A re-sent prompt's turn being waited for: started when its text arrives in a new message, ended on the next `session.idle`. */
  turnEnd: TurnEnd | undefined;
  /** True while ctxhost has opencode summarize the session outside a recovery (preemptive, re-summary). */
  compacting: boolean;
  /** After opencode's compaction: the first reply is checked for coming back empty. */
  afterCompaction: AfterCompaction;
  /** Why ctxhost asked opencode for the summary being written, until it is checked. */
  requestedSummary: CompactionReason | undefined;
  /**
   * The id of opencode's newest compaction marker. A reply opencode made before it (ids sort in the order opencode
   * made them) was sent the history the summary replaced: its usage is not the session's after the compaction.
   */
  compactionMarker: string | undefined;
}

export interface AfterCompaction {
  /** The next completed reply is the first one after a compaction. */
  watching: boolean;
  /** Re-summaries made since the last compaction ctxhost did not cause itself. */
  resummaries: number;
  /** The prompt whose first reply after a compaction came back empty, until a re-summary is decided on `session.idle`. */
  emptyReplyTo: string | undefined;
  /** True while ctxhost's own re-summary (and its re-sent turn) runs. */
  resummarizing: boolean;
}

export interface TurnEnd {
  /** The re-sent prompt's first text, and the message it was first sent as. */
  text: string;
  previousMessageId: string;
  started: boolean;
  resolve(): void;
}

export interface MirrorRegistry {
  stateOf(sessionId: string): MirrorState;
  peek(sessionId: string): MirrorState | undefined;
  drop(sessionId: string): void;
  readonly size: number;
}

/** Keeps `messageId` as the session's newest compaction marker, unless a newer one is known. */
export function noteCompactionMarker(state: MirrorState, messageId: string): void {
  if (state.compactionMarker === undefined || messageId > state.compactionMarker) state.compactionMarker = messageId;
}

/** One map from session id to its mirror state; `session.deleted` is one `drop`. */
export function createMirrorRegistry(): MirrorRegistry {
  const states = new Map<string, MirrorState>();
  return {
    stateOf(sessionId) {
      let state = states.get(sessionId);
      if (state === undefined) {
        state = {
          parts: new Map(),
          users: new Map(),
          mirrored: new Set(),
          unfinished: new Set(),
          lastPrompt: undefined,
          failedPrompt: undefined,
          withdrawnPrompt: undefined,
          model: undefined,
          shortened: new Map(),
          turnEnd: undefined,
          compacting: false,
          afterCompaction: { watching: false, resummaries: 0, emptyReplyTo: undefined, resummarizing: false },
          requestedSummary: undefined,
          compactionMarker: undefined,
        };
        states.set(sessionId, state);
      }
      return state;
    },
    peek: (sessionId) => states.get(sessionId),
    drop(sessionId) {
      states.get(sessionId)?.turnEnd?.resolve();
      states.delete(sessionId);
    },
    get size() {
      return states.size;
    },
  };
}
