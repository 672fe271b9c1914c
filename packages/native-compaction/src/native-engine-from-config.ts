import type { ContextEngine } from '@ctxhost/core';
import type { NativeCompactionConfig } from './config-schema.js';
import { createNativeCompactionEngine, type NativeCompactionEngineOptions } from './native-compaction-engine.js';
import type { NativeCompactor } from './native-compactor.js';

/**
 * The native engine as `hooks.native-compaction` sets it for the compactor's
 * vendor (`anthropic.on_demand` or `openai.standalone`: trigger, kept tail,
 * focus; `readable_copy`), or the fallback engine itself when that mechanism
 * is off, so the caller can always install what this returns.
 */
export function nativeEngineFromConfig(
  config: NativeCompactionConfig,
  compactor: NativeCompactor,
  fallback: ContextEngine,
  extra: Pick<NativeCompactionEngineOptions, 'onFallback'> = {},
): ContextEngine {
  const section = compactor.vendor === 'anthropic' ? config.anthropic.on_demand : config.openai.standalone;
  if (!section.enabled) return fallback;
  return createNativeCompactionEngine({
    compactor,
    fallback,
    trigger: section.trigger,
    keepTailTokens: section.keep_tail_tokens,
    ...(section.focus === undefined ? {} : { focus: section.focus }),
    ...(config.readable_copy.enabled
      ? { readableCopy: config.readable_copy.summarizer }
      : { readableCopy: 'extractive' }),
    ...extra,
  });
}
