import { addCounts, type TextFeatures } from './scan-text.js';
import { CACHED_TEXT_MIN_LENGTH, type TextFeaturesCache } from './text-features-cache.js';
import { emptyTokenFeatures } from './token-features.js';

/**
 * Adds `scan`'s counts of `text` to `target`: a short text scanned straight in; a long one looked up in
 * `cache` and, when not there, scanned into an entry stored there, or straight in while the cache skips
 * (an entry it would only evict unread).
 */
export function addScannedFeatures(
  target: TextFeatures,
  text: string,
  cache: TextFeaturesCache<TextFeatures>,
  scan: (target: TextFeatures, text: string) => void,
): void {
  if (text.length < CACHED_TEXT_MIN_LENGTH) {
    scan(target, text);
    return;
  }
  let counts = cache.get(text);
  if (counts === undefined) {
    if (cache.skipping) {
      scan(target, text);
      return;
    }
    counts = emptyTokenFeatures();
    scan(counts, text);
    cache.set(text, counts);
  }
  addCounts(target, counts);
}
