import {
  NATIVE_COMPACTION_STAGE,
  SERVER_FIRST,
  serverFirstThreshold as nativeServerFirstThreshold,
  warnDeprecatedOnce,
  withServerFirst as nativeWithServerFirst,
  type ServerFirstOptions,
} from '@ctxhost/native-compaction';

/* `withServerFirst` moved to @ctxhost/native-compaction; these aliases warn once. */

export { SERVER_FIRST, type ServerFirstOptions };

/** @deprecated use `NATIVE_COMPACTION_STAGE` from @ctxhost/native-compaction. */
export const SERVER_CONTEXT_STAGE = NATIVE_COMPACTION_STAGE;

/** @deprecated import `withServerFirst` from @ctxhost/native-compaction. */
export function withServerFirst(
  ...args: Parameters<typeof nativeWithServerFirst>
): ReturnType<typeof nativeWithServerFirst> {
  warnDeprecatedOnce('withServerFirst from @ctxhost/prompt-caching', 'withServerFirst from @ctxhost/native-compaction');
  return nativeWithServerFirst(...args);
}

/** @deprecated import `serverFirstThreshold` from @ctxhost/native-compaction. */
export function serverFirstThreshold(...args: Parameters<typeof nativeServerFirstThreshold>): number | undefined {
  warnDeprecatedOnce(
    'serverFirstThreshold from @ctxhost/prompt-caching',
    'serverFirstThreshold from @ctxhost/native-compaction',
  );
  return nativeServerFirstThreshold(...args);
}
