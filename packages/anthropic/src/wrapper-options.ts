import {
  foldDeprecatedWrapperOptions,
  warnDeprecated,
  type IntegrationOptions,
  type ModelOverride,
  type PartialConfig,
  type TokenCounter,
} from '@ctxhost/core';

/** The options of `withContextManagement`: the ones every integration takes, and the wrapper's old names. */
export interface ContextManagementOptions extends IntegrationOptions {
  /** @deprecated Use `config.models` (core's `models:` section). Said once. */
  models?: Readonly<Record<string, ModelOverride>>;
  /** @deprecated `false`: use `config.disabledHooks: ['prompt-caching']`. Said once. */
  caching?: boolean;
  /** @deprecated Use `config.promptCaching.cacheTtl` (`prompt_caching.cache_ttl` in a config file). Said once. */
  cacheTtl?: '5m' | '1h';
  /** @deprecated Use `config.hooks['anthropic-auto-compact'].max_retry_attempts` (the host's recovery cascade). Said once. */
  maxRecoveries?: number;
  /** @deprecated Pass a `host` built with your counter (`createDefaultHost({ counter })`). Said once. */
  counter?: TokenCounter;
  /**
   * @deprecated Pass a `host` built with a summarizer (`createDefaultHost({ summarizer: createAnthropicSummarizer(client, { model }) })`).
   * Still honoured for the default host: `true` summarizes with `model` (else the first request's model), `{ model }` with that one. Said once.
   */
  summarize?: boolean | { model: string };
  /** @deprecated Use `config.compression.threshold` (a share of the window). Said once. */
  compactAt?: number;
  /** @deprecated Not used: `config.compression.targetRatio` sets what a compaction keeps. Said once. */
  lowWater?: number;
  /** @deprecated Tap `host.hooks.compactionCompleted`. Still called for this wrapper's compactions. Said once. */
  onCompaction?: (event: WrapperCompactionEvent) => void;
  /** @deprecated Tap `host.hooks.toast` ("Context window learned"). Still called once per model. Said once. */
  onWindowLearned?: (event: { model: string; contextWindow: number; previous: number | undefined }) => void;
}

export interface WrapperCompactionEvent {
  tokensBefore: number;
  tokensAfter: number;
  /** `overflow`: a recovery after the API refused the request; `preflight`: before sending. */
  reason: 'preflight' | 'overflow';
  messagesBefore: number;
  messagesAfter: number;
  /** Messages left out with nothing in their place. */
  dropped: number;
  /** Messages a summary now stands for. */
  summarized: number;
  /** The compaction's own notes (steps, the summary's source). */
  notes: string[];
}

/** What the old options ask of the default host, beside its config. */
export interface DefaultHostExtras {
  counter?: TokenCounter;
  summarize?: boolean | { model: string };
}

const NAME = 'withContextManagement';

/** @deprecated The old wrapper's own thresholds; the host's config decides now (`compression.threshold`, the recovery cascade's attempts). */
export const WRAPPER_DEFAULTS = { compactAt: 0.85, lowWater: 0.5, maxRecoveries: 2 } as const;

/**
 * The options every integration takes, with the old names folded into them (each said once): the
 * config the default host is built with, and what it is built with beside the config.
 */
export function resolveOptions(options: ContextManagementOptions): {
  shared: IntegrationOptions;
  extras: DefaultHostExtras;
} {
  const { models, caching, cacheTtl, maxRecoveries, counter, summarize, compactAt, lowWater, ...rest } = options;
  const { onCompaction: _onCompaction, onWindowLearned: _onWindowLearned, ...shared } = rest;
  const config: PartialConfig = { ...foldDeprecatedWrapperOptions(shared.config, { models, maxRecoveries }) };
  const said = (name: string, instead: string) =>
    warnDeprecated(`anthropic:${name}`, `${NAME}: the ${name} option is deprecated: ${instead}`);
  if (models !== undefined) said('models', 'use config.models (it still works)');
  if (caching === false) {
    said('caching', "use config.disabledHooks: ['prompt-caching'] (it still works)");
    config.disabledHooks = [...(config.disabledHooks ?? []), 'prompt-caching'];
  }
  if (cacheTtl !== undefined) {
    said('cacheTtl', 'use config.promptCaching.cacheTtl (it still works)');
    config.promptCaching = { cacheTtl, ...config.promptCaching };
  }
  if (maxRecoveries !== undefined)
    said('maxRecoveries', "use config.hooks['anthropic-auto-compact'].max_retry_attempts (it still works)");
  if (compactAt !== undefined) {
    said('compactAt', 'use config.compression.threshold (it still works)');
    config.compression = { threshold: compactAt, ...config.compression };
  }
  if (lowWater !== undefined)
    said('lowWater', 'it is no longer used; config.compression.targetRatio sets what a compaction keeps');
  if (counter !== undefined)
    said('counter', 'pass a host built with your counter (it still works for the default host)');
  if (summarize !== undefined)
    said('summarize', 'pass a host built with a summarizer (it still works for the default host)');
  if (rest.onCompaction !== undefined) said('onCompaction', 'tap host.hooks.compactionCompleted (it still works)');
  if (rest.onWindowLearned !== undefined) said('onWindowLearned', 'tap host.hooks.toast (it still works)');
  const usesConfig = Object.keys(config).length > 0;
  return {
    shared: { ...shared, ...(usesConfig ? { config } : {}) },
    extras: {
      ...(counter === undefined ? {} : { counter }),
      ...(summarize === undefined || summarize === false ? {} : { summarize }),
    },
  };
}
