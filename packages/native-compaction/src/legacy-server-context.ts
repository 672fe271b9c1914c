import type { z } from 'zod';
import {
  anthropicTriggerTokens,
  buildAnthropicContextManagement,
  type AnthropicContextManagement,
} from './anthropic-context-management.js';
import { NativeCompactionConfigSchema } from './config-schema.js';
import { warnDeprecatedOnce } from './deprecation.js';
import {
  fromServerContextConfig,
  ServerContextConfigSchema,
  type ServerContextConfig,
} from './legacy-server-context-config.js';
import {
  createNativeCompactionPlugin,
  withAnthropicContextManagement,
  type NativeCompactionPlugin,
} from './native-compaction-plugin.js';
import { readNativeReport, type NativeReport } from './native-report.js';
import type { NativeTotals } from './native-totals.js';

/* The names `@ctxhost/prompt-caching` exported before this package existed: each still works and warns once. */

export type ServerContextRequest = AnthropicContextManagement;
export type ServerContextReport = NativeReport;
export type ServerContextTotals = Omit<NativeTotals, 'fallbacks'>;
export interface ServerContextPluginOptions {
  /** `hooks.server-context` in the file's spelling. */
  config?: z.input<typeof ServerContextConfigSchema>;
  provider?: string;
}
export type ServerContextPlugin = NativeCompactionPlugin;

const anthropicOf = (config: ServerContextConfig) =>
  NativeCompactionConfigSchema.parse(fromServerContextConfig(config)).anthropic;

/** @deprecated use `buildAnthropicContextManagement(config.anthropic)`. */
export function buildServerContextRequest(config: ServerContextConfig): ServerContextRequest | undefined {
  warnDeprecatedOnce('buildServerContextRequest', 'buildAnthropicContextManagement from @ctxhost/native-compaction');
  return buildAnthropicContextManagement(anthropicOf(config));
}

/** @deprecated use `anthropicTriggerTokens(config.anthropic)`. */
export function serverTriggerTokens(config: ServerContextConfig): number | undefined {
  warnDeprecatedOnce('serverTriggerTokens', 'anthropicTriggerTokens from @ctxhost/native-compaction');
  return anthropicTriggerTokens(anthropicOf(config));
}

/** @deprecated use `readNativeReport`. */
export function readServerContextReport(...args: Parameters<typeof readNativeReport>): NativeReport | undefined {
  warnDeprecatedOnce('readServerContextReport', 'readNativeReport from @ctxhost/native-compaction');
  return readNativeReport(...args);
}

/** @deprecated use `withAnthropicContextManagement`. */
export function withServerContext(
  ...args: Parameters<typeof withAnthropicContextManagement>
): ReturnType<typeof withAnthropicContextManagement> {
  warnDeprecatedOnce('withServerContext', 'withAnthropicContextManagement from @ctxhost/native-compaction');
  return withAnthropicContextManagement(...args);
}

/** @deprecated use `createNativeCompactionPlugin` with `hooks.native-compaction` (this one takes the old section's shape). */
export function createServerContextPlugin(options: ServerContextPluginOptions = {}): ServerContextPlugin {
  warnDeprecatedOnce('createServerContextPlugin', 'createNativeCompactionPlugin from @ctxhost/native-compaction');
  const config =
    options.config === undefined ? undefined : fromServerContextConfig(ServerContextConfigSchema.parse(options.config));
  return createNativeCompactionPlugin({
    ...(config === undefined ? {} : { config }),
    provider: options.provider ?? 'anthropic',
  });
}
