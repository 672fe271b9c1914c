/** Texts shorter than this are scanned every time: a scan costs less than the lookup. */
export const CACHED_TEXT_MIN_LENGTH = 256;
/** The characters the cache may hold; past it the oldest entries go first. */
export const TEXT_FEATURES_CACHE_CHARS = 16 * 1024 * 1024;
/** While skipping, one lookup in this many is made all the same, so a text seen again ends the skip. */
const PROBE_EVERY = 16;
/** A skip that follows another with no hit between is twice as long as it, up to this many times the limit. */
const MAX_SKIP_LIMITS = 16;

/**
 * The estimator's memory of the texts it scanned, shared by every counter and
 * session in the process: a text that comes again (the same tool output in a
 * forked session, a history counted by a fresh counter, a copy of a message)
 * is looked up, not scanned. Keyed by the string itself, so a lookup costs the
 * engine's native string hash (cached on the string object) and, for an equal
 * string that is another object, a native comparison. Bounded by characters,
 * oldest first out, since the keys keep their texts alive.
 *
 * A lookup that misses costs a read of the text (its hash) and the entry then stored costs its allocation,
 * its insertion and, once it survives, the garbage collector: all for nothing when the texts never come
 * again, as on the first call of a long conversation (100k messages hold 70 M characters of new text,
 * each stored then evicted unread). So once a quarter of the limit in characters has missed in a row, the
 * cache skips: `get` answers undefined without looking up (one lookup in 16 is made, and a hit ends the
 * skip) and the caller scans without storing, for the next limit in characters looked up; then it
 * looks up and stores again. A skip that follows another with no hit between lasts twice as long as that one
 * (up to 16 limits): a first call of 70 M characters of new text then stores (and evicts unread) 12 M of
 * them, not 16 M.
 */
export interface TextFeaturesCache<T> {
  /** The features stored for `text`; undefined when not stored or, while `skipping`, not looked up. */
  get(text: string): T | undefined;
  set(text: string, features: T): void;
  /** True while lookups are skipped: a text just missed is better scanned than stored. */
  readonly skipping: boolean;
  clear(): void;
  /** Characters held. */
  readonly chars: number;
}

export function createTextFeaturesCache<T>(limitChars: number = TEXT_FEATURES_CACHE_CHARS): TextFeaturesCache<T> {
  const entries = new Map<string, T>();
  // The texts in the order stored, oldest at `oldest`: eviction reads them here, not through a new iterator of the
  // map, which would walk past every entry deleted before it (quadratic once every text stored evicts one).
  let order: string[] = [];
  let oldest = 0;
  let chars = 0;
  /** Characters looked up and missed since the last hit. */
  let missedChars = 0;
  /** Characters still to skip; none while looking up (0 or below). */
  let skipChars = 0;
  let skipped = 0;
  /** The next skip's length in characters: doubled while the misses go on, the limit again after a hit. */
  let nextSkip = limitChars;
  return {
    get(text) {
      if (skipChars > 0) {
        skipChars -= text.length;
        if (++skipped % PROBE_EVERY !== 0) return undefined;
      }
      const features = entries.get(text);
      if (features !== undefined) {
        missedChars = 0;
        skipChars = 0;
        nextSkip = limitChars;
      } else if (skipChars <= 0 && (missedChars += text.length) >= limitChars / 4) {
        missedChars = 0;
        skipChars = nextSkip;
        nextSkip = Math.min(2 * nextSkip, MAX_SKIP_LIMITS * limitChars);
      }
      return features;
    },
    set(text, features) {
      if (text.length > limitChars || entries.has(text)) return;
      entries.set(text, features);
      order.push(text);
      chars += text.length;
      while (chars > limitChars) {
        const evicted = order[oldest++]!;
        entries.delete(evicted);
        chars -= evicted.length;
      }
      if (oldest > 1024 && oldest * 2 > order.length) {
        order = order.slice(oldest);
        oldest = 0;
      }
    },
    get skipping() {
      return skipChars > 0;
    },
    clear() {
      entries.clear();
      order = [];
      oldest = 0;
      chars = 0;
      missedChars = 0;
      skipChars = 0;
      nextSkip = limitChars;
    },
    get chars() {
      return chars;
    },
  };
}
