import type { JsonValue, Message, Usage } from '@ctxhost/core';

export type TranscriptFormat = 'claude-code' | 'openhands' | 'swe-agent' | 'pi' | 'opencode' | 'codex' | 'gemini-cli';

export const TRANSCRIPT_FORMATS: readonly TranscriptFormat[] = [
  'claude-code',
  'openhands',
  'swe-agent',
  'pi',
  'opencode',
  'codex',
  'gemini-cli',
];

/** How each format's agent is called, for help texts and messages. */
export const TRANSCRIPT_FORMAT_NAMES: Readonly<Record<TranscriptFormat, string>> = Object.freeze({
  'claude-code': 'Claude Code',
  openhands: 'OpenHands',
  'swe-agent': 'SWE-agent',
  pi: 'pi',
  opencode: 'opencode',
  codex: 'Codex CLI',
  'gemini-cli': 'Gemini CLI',
});

export interface TranscriptOptions {
  /** Skip malformed lines or events, counting them in `skipped`, instead of failing. Default false. */
  skipInvalid?: boolean;
  /** Claude Code: include subagent (sidechain) turns, marked `meta.sidechain`. Default false. */
  includeSidechains?: boolean;
  /** OpenHands multi-run JSONL: which run to import, 0-based. Default 0. */
  run?: number;
  /** Shown in error messages; `readTranscript` sets it to the path. Default `<text>`. */
  file?: string;
}

/** The usage one model request reported, placed in the imported message list. */
export interface TranscriptUsage {
  usage: Usage;
  /** Index of the last message the request's prompt covered (the message before the reply in its thread). */
  messageIndex: number;
  /** Index of the assistant message the request produced. */
  replyIndex: number;
  requestId?: string;
  /** True for a subagent (sidechain) request; only present with `includeSidechains`. */
  sidechain?: boolean;
}

/** Why a message the agent's UI logged was never sent to the model (replay leaves it out). */
export type UiOnlyReason = 'local-command' | 'local-command-output' | 'local-command-caveat' | 'interrupted';

/**
 * Where the agent compacted its own conversation: from `messageIndex` on, the model
 * saw only the messages after the boundary (the first is usually the agent's summary).
 */
export interface TranscriptBoundary {
  /** Index of the first message the model saw after the compaction. */
  messageIndex: number;
  /** 1-based line of the boundary record (or of the summary message, when no record was written). */
  line: number;
  /** `auto` (the agent hit its threshold), `manual` (`/compact`), `extension` (pi); absent when the transcript does not say. */
  trigger?: string;
  /** `boundary-line`: a compaction record; `summary-message`: only the summary message was found. */
  source: 'boundary-line' | 'summary-message';
  /** Index of the agent's summary when it is not the first message after the boundary (opencode: after its question). */
  summaryIndex?: number;
  /** The prompt size the agent reported before compacting, and after, when it logged them. */
  preTokens?: number;
  postTokens?: number;
}

export interface Transcript {
  format: TranscriptFormat;
  /** Validated ctxhost messages; ids are derived from the source, so re-imports are equal. */
  messages: Message[];
  /** Per-request API-reported usage, in request order (Claude Code). */
  usage?: TranscriptUsage[];
  /** The agent's own compactions of the main thread, oldest first; absent when there were none. */
  boundaries?: TranscriptBoundary[];
  /** Format-specific facts: session id, summaries, run count, ignored events, … */
  meta: Record<string, JsonValue>;
  /** Malformed lines or events skipped under `skipInvalid`. */
  skipped: number;
}
