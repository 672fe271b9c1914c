import { apiError } from '../wire/api-error.js';
import type { Exchange } from './exchange.js';
import { FAULT_KINDS, type Fault, type FaultKind, type RandomFaults } from './fault-kinds.js';
import { delayUnlessClosed } from '../wire/http-io.js';
import type { MessagesRequest } from '../wire/wire.js';

interface Rule {
  fault: Fault;
  matches(requestNumber: number, request: MessagesRequest): boolean;
  remaining: number;
}

/** Decides, per request, whether a fault is injected: by script, by request number, by predicate, or at random with a seed. */
export function createFaultPlan(random?: RandomFaults) {
  const rules: Rule[] = [];
  const next = mulberry32(random?.seed ?? 1);
  return {
    /** The next `count` requests fail with `fault`. */
    next(count: number, fault: Fault | FaultKind) {
      rules.push({ fault: asFault(fault), matches: () => true, remaining: count });
    },
    /** Request number `n` (1-based, counted over /v1/messages) fails with `fault`. */
    at(requestNumber: number, fault: Fault | FaultKind) {
      rules.push({ fault: asFault(fault), matches: (n) => n === requestNumber, remaining: 1 });
    },
    /** Every request matching `predicate` fails, at most `times` times (default unlimited). */
    when(predicate: (request: MessagesRequest) => boolean, fault: Fault | FaultKind, times = Number.POSITIVE_INFINITY) {
      rules.push({ fault: asFault(fault), matches: (_n, request) => predicate(request), remaining: times });
    },
    clear() {
      rules.length = 0;
    },
    pick(requestNumber: number, request: MessagesRequest): Fault | undefined {
      const rule = rules.find((candidate) => candidate.remaining > 0 && candidate.matches(requestNumber, request));
      if (rule !== undefined) {
        rule.remaining--;
        return rule.fault;
      }
      if (random === undefined || next() >= random.probability) return undefined;
      const kinds = random.kinds ?? FAULT_KINDS;
      return { kind: kinds[Math.floor(next() * kinds.length)]! };
    },
  };
}

function asFault(fault: Fault | FaultKind): Fault {
  return typeof fault === 'string' ? { kind: fault } : fault;
}

/** A small seeded PRNG (mulberry32): the same seed gives the same faults. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Acts out a fault. Returns true when the exchange is over (an error answered,
 * the socket dropped); false when the request goes on (after a delay, or for an
 * SSE error that comes after the 200).
 */
export async function applyFault(fault: Fault, exchange: Exchange, stream: boolean): Promise<boolean> {
  switch (fault.kind) {
    case 'slow':
      if (stream && fault.midStream === true) return false;
      // Over when the client leaves or the simulator closes: no timer outlives its exchange.
      return !(await delayUnlessClosed(fault.delayMs ?? 2000, exchange.response));
    case 'drop':
      exchange.request.socket.destroy();
      exchange.record.status = 0;
      return true;
    case 'rate_limit':
      exchange.fail(
        apiError(429, 'Number of request tokens has exceeded your per-minute rate limit', {
          headers: { 'retry-after': String(fault.retryAfterSeconds ?? 1) },
        }),
      );
      return true;
    case 'overloaded':
      exchange.fail(apiError(529, 'Overloaded'));
      return true;
    case 'server_error':
      exchange.fail(apiError(500, 'Internal server error'));
      return true;
    case 'sse_error':
      if (stream) return false;
      exchange.fail(apiError(500, 'Internal server error'));
      return true;
  }
}
