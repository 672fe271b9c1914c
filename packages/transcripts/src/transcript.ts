import type { JsonValue, Message, Usage } from '@ctxhost/core';

export type TranscriptFormat = 'claude-code' | 'openhands' | 'swe-agent';

export const TRANSCRIPT_FORMATS: readonly TranscriptFormat[] = ['claude-code', 'openhands', 'swe-agent'];

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

export interface Transcript {
  format: TranscriptFormat;
  /** Validated ctxhost messages; ids are derived from the source, so re-imports are equal. */
  messages: Message[];
  /** Per-request API-reported usage, in request order (Claude Code). */
  usage?: TranscriptUsage[];
  /** Format-specific facts: session id, summaries, run count, ignored events, … */
  meta: Record<string, JsonValue>;
  /** Malformed lines or events skipped under `skipInvalid`. */
  skipped: number;
}
