/** Faults the simulator can inject (README: Faults). */
export const FAULT_KINDS = ['rate_limit', 'overloaded', 'server_error', 'drop', 'slow', 'sse_error'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface Fault {
  kind: FaultKind;
  /** `retry-after` seconds for rate_limit (default 1). */
  retryAfterSeconds?: number;
  /** Delay for slow (default 2,000 ms). */
  delayMs?: number;
  /** For slow on a streamed /v1/messages request: the delay comes after the first content block, mid-stream, instead of before the reply. */
  midStream?: boolean;
}

export interface RandomFaults {
  /** Chance per request, 0–1. */
  probability: number;
  /** Seed of the PRNG, so a run can be repeated. */
  seed: number;
  kinds?: readonly FaultKind[];
}
