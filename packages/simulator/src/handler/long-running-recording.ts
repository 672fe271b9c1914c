/**
 * The recording bounds of a simulator left running for a person's own agent (the `ctxhost-simulator` bin and
 * `ctxhost simulator`): it keeps only its newest requests, since every body forever would grow without end, and at
 * most 64 MB of their bodies (1,000 requests of 7.6 MB each ran it out of memory). The totals (`stats`) stay.
 */
export const LONG_RUNNING_RECORDING = {
  maxRecordedRequests: 1_000,
  maxRecordedBytes: 64 * 1024 * 1024,
} as const;
