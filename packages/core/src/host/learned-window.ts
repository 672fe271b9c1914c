/**
 * What overflows that named no limit taught about a window: the largest prompt the API answered since
 * (`fits`) and the smallest one it refused (`rejected`), both in the host's own count of the prompt.
 * The real limit lies between them, so `fits` is the window to plan with: the monitor's, preemptive
 * compaction's and the compaction line's, with no further probing 400s.
 */
export interface WindowBound {
  fits?: number;
  rejected?: number;
}

/** A prompt of `tokens` refused by an overflow that named no limit: the bound tightens from above. */
export function boundAfterRejection(bound: WindowBound | undefined, tokens: number): WindowBound {
  const rejected = Math.min(bound?.rejected ?? tokens, tokens);
  // A prompt no larger than one answered before was refused: the limit moved (or the count drifted); wait for a new fit.
  return bound?.fits !== undefined && bound.fits < rejected ? { fits: bound.fits, rejected } : { rejected };
}

/**
 * A prompt of `tokens` answered: the bound relaxes to it when it is larger than the last fit. Undefined
 * (forgotten) when it reached the smallest refused prompt: the API takes more than it once refused.
 */
export function boundAfterFit(bound: WindowBound | undefined, tokens: number): WindowBound | undefined {
  if (bound?.rejected === undefined || tokens >= bound.rejected) return undefined;
  return { fits: Math.max(bound.fits ?? 0, tokens), rejected: bound.rejected };
}

/** Per host, per model: what a recovery learned, for every later session or request of that model in this process. */
const byHost = new WeakMap<object, Map<string, WindowBound>>();

export function learnedWindowBound(host: object, model: string): WindowBound | undefined {
  return byHost.get(host)?.get(model);
}

export function setLearnedWindowBound(host: object, model: string, bound: WindowBound | undefined): void {
  let models = byHost.get(host);
  if (bound === undefined) {
    models?.delete(model);
    return;
  }
  if (models === undefined) {
    models = new Map<string, WindowBound>();
    byHost.set(host, models);
  }
  models.set(model, bound);
}

/** `window` capped by what overflows that named no limit taught this host about `model` (the largest prompt answered). */
export function withLearnedWindow(host: object, model: string, window: number | undefined): number | undefined {
  const fits = learnedWindowBound(host, model)?.fits;
  if (fits === undefined) return window;
  return window === undefined ? fits : Math.min(window, fits);
}
