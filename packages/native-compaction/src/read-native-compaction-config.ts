import { readHookSection, type Host } from '@ctxhost/core';
import {
  NATIVE_COMPACTION,
  NativeCompactionConfigSchema,
  type NativeCompactionConfig,
  type NativeCompactionConfigInput,
} from './config-schema.js';
import { fromServerContextConfig, SERVER_CONTEXT, ServerContextConfigSchema } from './legacy-server-context-config.js';

/**
 * `hooks.native-compaction`, or the options' section in its place. A config
 * that still has the deprecated `hooks.server-context` (and no
 * `hooks.native-compaction`) is read as its Anthropic part, with one warning
 * naming the new key.
 */
export function readNativeCompactionConfig(
  host: Pick<Host, 'config' | 'logger'>,
  override: NativeCompactionConfigInput | undefined,
): NativeCompactionConfig {
  if (override !== undefined) return NativeCompactionConfigSchema.parse(override);
  const hooks = host.config.hooks;
  if (hooks[NATIVE_COMPACTION] === undefined && hooks[SERVER_CONTEXT] !== undefined) {
    host.logger.warn(
      `config hooks.${SERVER_CONTEXT} is deprecated: move its keys under hooks.${NATIVE_COMPACTION}.anthropic (compaction.instructions becomes compaction.focus; client_fallback_threshold stays at the top)`,
    );
    const legacy = readHookSection(host.config, SERVER_CONTEXT, ServerContextConfigSchema);
    return NativeCompactionConfigSchema.parse(fromServerContextConfig(legacy));
  }
  return readHookSection(host.config, NATIVE_COMPACTION, NativeCompactionConfigSchema);
}
