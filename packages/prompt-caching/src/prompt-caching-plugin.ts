import { readHookSection, REQUEST_STAGE, type Plugin } from '@ctxhost/core';
import type { CacheTtl } from './cache-marker.js';
import { createCachingTransform } from './caching-transform.js';
import { PROMPT_CACHING, PromptCachingConfigSchema } from './config-schema.js';

export interface PromptCachingPluginOptions {
  /** Overrides `prompt_caching.cache_ttl`. */
  ttl?: CacheTtl;
  /** The provider requests go to (default 'anthropic'). */
  provider?: string;
  baseUrl?: string;
  /** Overrides `hooks.prompt-caching.enabled`. */
  enabled?: boolean;
}

/**
 * The `prompt-caching` plugin: taps `beforeRequest` (AsyncSeriesWaterfallHook)
 * at REQUEST_STAGE.caching, after compaction and hygiene, so the breakpoints
 * land on the messages actually sent. Logs the status line once per model.
 */
export function createPromptCachingPlugin(options: PromptCachingPluginOptions = {}): Plugin {
  return {
    name: PROMPT_CACHING,
    apply(host) {
      const section = readHookSection(host.config, PROMPT_CACHING, PromptCachingConfigSchema);
      const transform = createCachingTransform({
        ttl: options.ttl ?? host.config.promptCaching.cacheTtl,
        provider: options.provider ?? 'anthropic',
        gateways: section.gateways,
        enabled: options.enabled ?? section.enabled,
        ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
        report: (line) => host.logger.info(line),
      });
      host.hooks.beforeRequest.tapPromise({ name: PROMPT_CACHING, stage: REQUEST_STAGE.caching }, async (request) =>
        transform(request),
      );
    },
  };
}
