/**
 * Fires once when a value crosses a threshold, then stays quiet until the
 * value falls back under it (after a compaction) and re-arms it.
 */
export interface ThresholdLatch {
  readonly threshold: number;
  /** True exactly once per arming, when `ratio` reaches the threshold. */
  cross(ratio: number): boolean;
  /** Re-arms when `ratio` is back under the threshold; returns whether it re-armed. */
  rearm(ratio: number): boolean;
  readonly armed: boolean;
}

export function createThresholdLatch(threshold: number): ThresholdLatch {
  let armed = true;
  return {
    threshold,
    get armed() {
      return armed;
    },
    cross(ratio) {
      if (!armed || ratio < threshold) return false;
      armed = false;
      return true;
    },
    rearm(ratio) {
      if (armed || ratio >= threshold) return false;
      armed = true;
      return true;
    },
  };
}
