/** The compressor's fixed constants, from Hermes Agent's context compressor (seeds 000–002). */
export const COMPRESSOR = {
  name: 'compressor',
  /** System prompt plus the first exchange are always kept. */
  protectFirstN: 3,
  /** Phase 1 clears tool results longer than this (characters) outside the protected tail. */
  pruneMinChars: 200,
  prunedToolOutput: '[Old tool output cleared to save context space]',
  /** Summary budget: middle tokens × 0.20, at least 2,000, at most min(window × 0.05, 12,000). */
  summaryRatio: 0.2,
  minSummaryTokens: 2_000,
  maxSummaryTokens: 12_000,
  maxSummaryWindowFraction: 0.05,
  summaryPrefix:
    '[CONTEXT COMPACTION] Earlier turns were compacted into this summary. Details can be re-read from files or re-run tools.',
  systemNote:
    '[Note: Some earlier conversation turns have been compacted into a summary (the message that begins with [CONTEXT COMPACTION]) to save context space.]',
  stubResult: '[Result not kept: this call was compacted away; see the summary.]',
  /** When a caller gives a target size (a recovery), the tail keeps at least this many messages instead of protect_last_n. */
  recoveryProtectLastN: 4,
  /** Beyond Hermes's compressor: a threshold compaction saving less than this share of the prompt is ineffective… */
  ineffectiveSavings: 0.1,
  /** …and the next one waits until the prompt has grown by this share of the window. */
  ineffectiveRegrowth: 0.1,
  /** Context-pressure warnings fire at this share of the threshold, when enabled (off by default, as Hermes removed them). */
  pressureWarningFraction: 0.85,
} as const;
