import type { RecordedRequest } from './recorded-request.js';

/** Running totals over every request answered, kept even when `simulator.requests` is emptied (soak runs drain it to bound memory). */
export interface SimulatorStats {
  /** Requests whose exchange is over (answered, streamed or dropped). */
  requests: number;
  /** Rejected by a rule about the request's shape: what ctxhost promises never to send. */
  rejectedForShape: number;
  /** Requests by the HTTP status answered (`0`: a dropped connection). */
  byStatus: Record<string, number>;
  /** Injected faults by kind. */
  faults: Record<string, number>;
}

export function createSimulatorStats(): { stats: SimulatorStats; tally: (record: RecordedRequest) => void } {
  const stats: SimulatorStats = { requests: 0, rejectedForShape: 0, byStatus: {}, faults: {} };
  return {
    stats,
    tally(record) {
      stats.requests += 1;
      if (record.rejectedForShape) stats.rejectedForShape += 1;
      stats.byStatus[record.status] = (stats.byStatus[record.status] ?? 0) + 1;
      if (record.fault !== undefined) stats.faults[record.fault] = (stats.faults[record.fault] ?? 0) + 1;
    },
  };
}
