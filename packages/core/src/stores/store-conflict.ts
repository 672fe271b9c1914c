import { CORE_ERROR_CODES, CtxhostError } from '../errors.js';

/** An append refused by its compare-and-set: another writer appended to the session since `expectedSeq`. */
export class StoreConflictError extends CtxhostError {
  constructor(
    readonly sessionId: string,
    readonly expectedSeq: number,
    readonly actualSeq: number,
  ) {
    super(
      CORE_ERROR_CODES.storeConflict,
      `session ${sessionId}: append refused, the writer's view ends at event ${expectedSeq} but the store holds ${actualSeq} events (another writer appended since); read the session again and redo the change`,
    );
  }
}

/** Throws a StoreConflictError unless the session's last seq is what the writer expected (no expectation: always passes). */
export function assertExpectedSeq(sessionId: string, expectedSeq: number | undefined, actualSeq: number): void {
  if (expectedSeq !== undefined && expectedSeq !== actualSeq)
    throw new StoreConflictError(sessionId, expectedSeq, actualSeq);
}
