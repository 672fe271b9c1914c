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

/**
 * A prompt answered for `model` where no usage is reported (the stateless integrations): the model's bound relaxes
 * as `boundAfterFit` says, as a reported answer does on a session. `tokens` (the caller's running count of the
 * prompt) is asked only when a bound is learned and may move; true when the bound changed.
 */
export function relaxLearnedWindow(host: object, model: string, tokens: () => number): boolean {
  const bound = learnedWindowBound(host, model);
  if (bound === undefined) return false;
  const size = tokens();
  if (bound.fits !== undefined && size <= bound.fits) return false;
  setLearnedWindowBound(host, model, boundAfterFit(bound, size));
  return true;
}

/** The window each session was given before a learned bound capped it: the first one given wins. */
const configuredWindows = new WeakMap<object, { window: number | undefined }>();

/**
 * Remembers `window` (an integration's explicit window, else the config's) as the one `session` was configured
 * with, so a session that forgets a learned bound goes back to it. Later calls do not replace it.
 */
export function rememberConfiguredWindow(session: object, window: number | undefined): void {
  if (!configuredWindows.has(session)) configuredWindows.set(session, { window });
}

/** The window `session` was configured with (see `rememberConfiguredWindow`), or undefined when none was remembered. */
export function configuredWindowOf(session: object): { window: number | undefined } | undefined {
  return configuredWindows.get(session);
}

/** Per session: the window that is its own (not a learned cap) and the learned cap its window was set to last. */
const sessionCaps = new WeakMap<object, { own: number | undefined; applied: number | undefined }>();

/**
 * Sets `session.contextWindow` for a turn to `model`: the session's own window capped by the model's learned bound as
 * it is now, so a bound another session or request raised or forgot since is followed, as each stateless request's
 * window is. Its own window is the one it was configured with (`configured`, the first time; see
 * `rememberConfiguredWindow`), or one set since by anything but a learned cap (a limit an overflow stated, the caller).
 */
export function capSessionWindow(
  host: object,
  model: string,
  session: { contextWindow: number | undefined },
  configured: number | undefined,
): void {
  rememberConfiguredWindow(session, configured);
  const last = sessionCaps.get(session);
  const own =
    last === undefined
      ? configuredWindowOf(session)!.window
      : session.contextWindow === last.applied
        ? last.own
        : session.contextWindow;
  const window = withLearnedWindow(host, model, own);
  session.contextWindow = window;
  sessionCaps.set(session, { own, applied: window });
}

/** `window`, set on `session` from a learned bound (a probe's fit, a raise): a learned cap, not a window of its own. */
export function setLearnedSessionWindow(
  session: { contextWindow: number | undefined },
  window: number | undefined,
): void {
  session.contextWindow = window;
  const caps = sessionCaps.get(session);
  if (caps !== undefined) caps.applied = window;
}

/** `window` capped by what overflows that named no limit taught this host about `model` (the largest prompt answered). */
export function withLearnedWindow(host: object, model: string, window: number | undefined): number | undefined {
  const fits = learnedWindowBound(host, model)?.fits;
  if (fits === undefined) return window;
  return window === undefined ? fits : Math.min(window, fits);
}
