import type { HostLogger } from '../host/host.js';

export interface ReportOnce {
  /**
   * Warns once per `cause` (a short stable name: `store`, `hook`, `engine:<name>`); later reports of the cause
   * are counted, not repeated. `outcome`: what became of the request (default: it went out as the caller sent it).
   */
  (cause: string, text: string, error?: unknown, outcome?: string): void;
  /** How often each cause was reported (the first included). */
  readonly counts: ReadonlyMap<string, number>;
}

const AS_SENT = "the request went out without ctxhost's change";

/** ctxhost's own trouble on the stateless path, said once per cause through the host's logger. */
export function createReportOnce(logger: () => HostLogger | undefined, prefix: string): ReportOnce {
  const counts = new Map<string, number>();
  const report = (cause: string, text: string, error?: unknown, outcome = AS_SENT): void => {
    const count = (counts.get(cause) ?? 0) + 1;
    counts.set(cause, count);
    if (count > 1) return;
    const detail = error === undefined ? '' : `: ${error instanceof Error ? error.message : String(error)}`;
    const line = `${prefix}: ${text}${detail} (said once; ${outcome})`;
    logger()?.warn(line, { cause });
    // A library user who gave no logger still hears it (the host's default logger is silent).
    process.emitWarning(line, { code: 'CTXHOST_STATELESS' });
  };
  return Object.assign(report, { counts });
}
