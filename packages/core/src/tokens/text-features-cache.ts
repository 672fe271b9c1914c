/** Texts shorter than this are scanned every time: a scan costs less than the lookup. */
export const CACHED_TEXT_MIN_LENGTH = 256;
/** The characters the cache may hold; past it the oldest entries go first. */
export const TEXT_FEATURES_CACHE_CHARS = 16 * 1024 * 1024;

/**
 * The estimator's memory of the texts it scanned, shared by every counter and
 * session in the process: a text that comes again (the same tool output in a
 * forked session, a history counted by a fresh counter, a copy of a message)
 * is looked up, not scanned. Keyed by the string itself, so a lookup costs the
 * engine's native string hash (cached on the string object) and, for an equal
 * string that is another object, a native comparison. Bounded by characters,
 * oldest first out, since the keys keep their texts alive.
 */
export interface TextFeaturesCache<T> {
  get(text: string): T | undefined;
  set(text: string, features: T): void;
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
  return {
    get: (text) => entries.get(text),
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
    clear() {
      entries.clear();
      order = [];
      oldest = 0;
      chars = 0;
    },
    get chars() {
      return chars;
    },
  };
}
