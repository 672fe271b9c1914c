/**
 * After a summarizer failure the summarizer rests: the next compactions use
 * the extractive summary until `compactions` have passed or `minutes` have
 * elapsed, whichever comes first. A broken summarizer is then not called (and
 * waited for) on every compaction. One record per engine: a summarizer that
 * fails is broken for every session.
 */
export interface SummarizerCooldown {
  /** Whether the summarizer may be called now; counts a compaction that skips it. Returns the reason it rests, or undefined. */
  resting(): string | undefined;
  failed(): void;
  succeeded(): void;
}

export function createSummarizerCooldown(options: {
  compactions: number;
  minutes: number;
  now?: () => number;
}): SummarizerCooldown {
  const now = options.now ?? Date.now;
  let failure: { at: number; skipped: number } | undefined;
  return {
    resting() {
      if (failure === undefined) return undefined;
      const until = failure.at + options.minutes * 60_000;
      if (failure.skipped >= options.compactions || now() >= until) {
        failure = undefined;
        return undefined;
      }
      failure.skipped += 1;
      const left = options.compactions - failure.skipped;
      return `resting after a failure (${left} more compaction${left === 1 ? '' : 's'} or until ${new Date(until).toISOString()}, whichever comes first)`;
    },
    failed() {
      failure = { at: now(), skipped: 0 };
    },
    succeeded() {
      failure = undefined;
    },
  };
}
