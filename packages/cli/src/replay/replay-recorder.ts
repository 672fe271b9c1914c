import {
  AUTO_COMPACT,
  promptTokens,
  type CompactionReport,
  type Host,
  type ProviderErrorKind,
  type Usage,
} from 'ctxhost';
import { priceRequests, type ModelOverrides } from '../pricing.js';

/** What happened during a replay, in order. `call` is the number of model calls answered before it. */
export type ReplayEvent =
  | { kind: 'compaction'; call: number; sessionId: string; report: CompactionReport }
  | { kind: 'overflow'; call: number; sessionId: string; errorKind: ProviderErrorKind; message: string }
  | { kind: 'error'; call: number; sessionId: string; errorKind: ProviderErrorKind; message: string }
  | {
      kind: 'recovery';
      call: number;
      sessionId: string;
      text: string;
      /** The call at which the session first answered after its overflow (the toast comes when the resend has finished). */ answeredAt?: number;
    }
  | { kind: 'recovery-failed'; call: number; sessionId: string; text: string }
  | { kind: 'toast'; call: number; sessionId: string; level: string; title: string; text: string; source: string };

/** One model call that answered: the prompt size the API reported and the running cost of the whole replay. */
export interface ReplayPoint {
  call: number;
  sessionId: string;
  /** The model the call is priced as: the recorded turn's own model, or the override. */
  model: string;
  contextTokens: number;
  dollars: number;
  dollarsWithoutCaching: number;
}

export interface ReplayRecording {
  readonly points: ReplayPoint[];
  readonly events: ReplayEvent[];
  /** Every answered call's usage with the model it is priced as. */
  readonly requests: { model: string; usage: Usage }[];
  /** Compactions tried and not done (nothing to gain, or vetoed): the host says why once per session, this counts them all. */
  readonly notDone: { count: number };
}

const RECORDER = 'ctxhost-replay';

/** The errors the recovery cascade handles: the ones a replay counts as overflows. */
const OVERFLOW_KINDS: ReadonlySet<ProviderErrorKind> = new Set([
  'context_overflow',
  'output_budget_overflow',
  'request_too_large',
  'empty_content',
]);

/**
 * Taps the host to record every answered call (prompt tokens as the API
 * reported them, cumulative dollars with and without caching) and every
 * compaction, overflow, recovery and toast, calling the listeners as each happens.
 */
export function recordReplay(
  host: Host,
  modelOf: (sessionId: string) => string,
  listeners: { onEvent?: (event: ReplayEvent) => void; onPoint?: (point: ReplayPoint) => void } = {},
  overrides?: ModelOverrides,
): ReplayRecording {
  const points: ReplayPoint[] = [];
  const events: ReplayEvent[] = [];
  const requests: { model: string; usage: Usage }[] = [];
  let dollars = 0;
  let dollarsWithoutCaching = 0;
  /** Per session in an overflow incident: the first call it answered since, once it has. */
  const incidents = new Map<string, number | undefined>();
  const emit = (event: ReplayEvent): void => {
    events.push(event);
    listeners.onEvent?.(event);
  };
  host.hooks.messageUpdated.tapPromise(RECORDER, async ({ sessionId, message, usage }) => {
    if (message.role !== 'assistant' || usage === undefined) return;
    const model = modelOf(sessionId);
    requests.push({ model, usage });
    const cost = priceRequests([usage], model, overrides);
    if (cost.priced) {
      dollars += cost.dollars.total;
      dollarsWithoutCaching += cost.withoutCaching;
    }
    const point = {
      call: points.length + 1,
      sessionId,
      model,
      contextTokens: promptTokens(usage),
      dollars,
      dollarsWithoutCaching,
    };
    points.push(point);
    if (incidents.has(sessionId) && incidents.get(sessionId) === undefined) incidents.set(sessionId, point.call);
    listeners.onPoint?.(point);
  });
  host.hooks.compactionCompleted.tapPromise(RECORDER, async ({ sessionId, report }) =>
    emit({ kind: 'compaction', call: points.length, sessionId, report }),
  );
  const notDone = { count: 0 };
  host.hooks.compactionFailed.tapPromise(RECORDER, async () => {
    notDone.count++;
  });
  host.hooks.sessionError.tapPromise(RECORDER, async ({ sessionId, error }) => {
    if (OVERFLOW_KINDS.has(error.kind)) incidents.set(sessionId, undefined);
    emit({
      kind: OVERFLOW_KINDS.has(error.kind) ? 'overflow' : 'error',
      call: points.length,
      sessionId,
      errorKind: error.kind,
      message: error.message,
    });
  });
  host.hooks.toast.tapPromise(RECORDER, async (toast) => {
    const base = { call: points.length, sessionId: toast.sessionId ?? '' };
    const answeredAt = incidents.get(base.sessionId);
    if (toast.source === AUTO_COMPACT && toast.level === 'success') {
      incidents.delete(base.sessionId);
      emit({ kind: 'recovery', ...base, text: toast.text, ...(answeredAt === undefined ? {} : { answeredAt }) });
    } else if (toast.source === AUTO_COMPACT && toast.level === 'error') {
      incidents.delete(base.sessionId);
      emit({ kind: 'recovery-failed', ...base, text: toast.text });
    } else
      emit({ kind: 'toast', ...base, level: toast.level, title: toast.title, text: toast.text, source: toast.source });
  });
  return { points, events, requests, notDone };
}
