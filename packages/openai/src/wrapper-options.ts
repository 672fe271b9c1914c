import { createDefaultHost } from '@ctxhost/default-host';
import {
  foldDeprecatedWrapperOptions,
  warnDeprecated,
  type Host,
  type IntegrationOptions,
  type ModelOverride,
  type PartialConfig,
  type TokenCounter,
} from '@ctxhost/core';
import { openAITokenCounterFor } from './openai-token-counter.js';

/** A compaction the wrapper's default host made (the deprecated `onCompaction` event). */
export interface OpenAIWrapperCompactionEvent {
  model: string;
  tokensBefore: number;
  tokensAfter: number;
  reason: 'preflight' | 'overflow';
}

/** The options every integration takes (`IntegrationOptions`: host, config, contextWindow, model, maxOutputTokens), plus the wrapper's old names. */
export interface OpenAIContextManagementOptions extends IntegrationOptions {
  /** @deprecated Use `config: { models }` (core's `models:` section). Still applied to the default host; said once. */
  models?: Readonly<Record<string, ModelOverride>>;
  /** @deprecated Use `config.hooks['anthropic-auto-compact'].max_retry_attempts` (the host's recovery cascade). Still applied to the default host; said once. */
  maxRecoveries?: number;
  /** @deprecated Give your host the counter (`host: await createDefaultHost({ counter })`). Still used by the default host; said once. */
  counter?: TokenCounter;
  /** @deprecated Tap `host.hooks.compactionCompleted`. Still told of the default host's compactions; said once. */
  onCompaction?: (event: OpenAIWrapperCompactionEvent) => void;
}

export interface ResolvedWrapperOptions {
  /** The shared options, the old names folded in. */
  integration: IntegrationOptions;
  /** Builds the default host for `config` (the counter and compaction listener of the old options on it). */
  createHost(config: PartialConfig): Promise<Host>;
  /** The model of the latest request (the deprecated event names it). */
  sawModel(model: string): void;
  /** A turn's recovery began (+1) or ended (-1): compactions meanwhile are the deprecated event's `overflow`. */
  recovering(change: 1 | -1): void;
}

/**
 * The wrapper's options as every integration's, its old names deprecated aliases said once: `models`
 * and `maxRecoveries` go into the default host's config as in every wrapper (`foldDeprecatedWrapperOptions`),
 * `counter` and `onCompaction` onto the default host.
 */
export function resolveWrapperOptions(options: OpenAIContextManagementOptions): ResolvedWrapperOptions {
  const { models, maxRecoveries, counter, onCompaction, ...rest } = options;
  const config = foldDeprecatedWrapperOptions(rest.config, { models, maxRecoveries });
  const integration: IntegrationOptions = config === undefined ? rest : { ...rest, config };
  const say = (name: string, text: string) => warnDeprecated(`openai:${name}`, `withContextManagement: ${text}`);
  if (models !== undefined) say('models', 'the models option is now config: { models }; the old name still works');
  if (maxRecoveries !== undefined)
    say(
      'maxRecoveries',
      "maxRecoveries is now config.hooks['anthropic-auto-compact'].max_retry_attempts (the host's recovery cascade); the old name still works",
    );
  if (counter !== undefined)
    say(
      'counter',
      "the counter option is now the host's (host: await createDefaultHost({ counter })); the old name still works",
    );
  if (onCompaction !== undefined)
    say(
      'onCompaction',
      "onCompaction is now the host's compaction.completed hook (host.hooks.compactionCompleted); the old name still works with the default host",
    );
  let latestModel = options.model ?? 'unknown';
  let recoveries = 0;
  return {
    integration,
    sawModel: (model) => void (latestModel = options.model ?? model),
    recovering: (change) => void (recoveries += change),
    async createHost(config) {
      const modelCounter =
        counter ??
        (options.model === undefined
          ? undefined
          : await openAITokenCounterFor(options.model, config.models as Record<string, ModelOverride> | undefined));
      const host = await createDefaultHost({
        config,
        ...(modelCounter === undefined ? {} : { counter: modelCounter }),
      });
      if (onCompaction !== undefined)
        host.hooks.compactionCompleted.tap('openai-wrapper-on-compaction', ({ report }) => {
          if (report.engine === 'stateless-cache') return;
          onCompaction({
            model: latestModel,
            tokensBefore: report.tokensBefore,
            tokensAfter: report.tokensAfter,
            reason: recoveries > 0 ? 'overflow' : 'preflight',
          });
        });
      return host;
    },
  };
}
