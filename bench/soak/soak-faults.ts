import {
  mulberry32,
  type FaultKind,
  type MessagesRequest,
  type Simulator,
  type SimulatorFeature,
} from '@ctxhost/simulator';

/** The request faults a soak injects, with delays kept small so a run takes minutes. */
export const SOAK_FAULTS = [
  { kind: 'rate_limit', retryAfterSeconds: 0.05 },
  { kind: 'overloaded' },
  { kind: 'drop' },
  { kind: 'slow', delayMs: 150 },
  { kind: 'sse_error' },
] as const satisfies readonly { kind: FaultKind; retryAfterSeconds?: number; delayMs?: number }[];

/** A 200 reply with no content at all (the agent must report it, never store it). */
export const EMPTY_REPLY = 'empty_reply';

export type SoakFaultName = (typeof SOAK_FAULTS)[number]['kind'] | typeof EMPTY_REPLY;

export interface SoakFaults {
  /** The simulator feature that empties the replies picked for EMPTY_REPLY (pass it in `features`). */
  feature: SimulatorFeature;
  /** Adds the request faults to a started simulator's fault plan. */
  install(sim: Simulator): void;
  /** Empty replies sent so far. */
  readonly emptyReplies: number;
}

/**
 * Seeded random faults over every `/v1/messages` request: with probability
 * `rate` a request gets one of SOAK_FAULTS or an empty reply, chosen evenly.
 * One draw per request: the fault plan asks each rule in turn, so the
 * decision is remembered by request body.
 */
export function createSoakFaults(options: { rate: number; seed: number }): SoakFaults {
  const random = mulberry32(options.seed);
  const names: SoakFaultName[] = [...SOAK_FAULTS.map((fault) => fault.kind), EMPTY_REPLY];
  const decided = new WeakMap<MessagesRequest, SoakFaultName | 'none'>();
  const decide = (request: MessagesRequest): SoakFaultName | 'none' => {
    let name = decided.get(request);
    if (name === undefined) {
      name = random() < options.rate ? names[Math.floor(random() * names.length)]! : 'none';
      decided.set(request, name);
    }
    return name;
  };
  const emptied = new Set<string>();
  let emptyReplies = 0;
  return {
    feature: {
      name: 'soak-empty-reply',
      prepareRequest(request, context) {
        if (decide(request) === EMPTY_REPLY) emptied.add(context.requestId);
        return request;
      },
      finishTurn(turn, context) {
        if (!emptied.delete(context.requestId)) return turn;
        emptyReplies += 1;
        return { content: [], stop_reason: 'end_turn' };
      },
    },
    install(sim) {
      for (const fault of SOAK_FAULTS) sim.faults.when((request) => decide(request) === fault.kind, fault);
    },
    get emptyReplies() {
      return emptyReplies;
    },
  };
}
