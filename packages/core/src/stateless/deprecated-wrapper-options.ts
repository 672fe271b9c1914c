import type { PartialConfig } from '../config/host-config.js';
import type { ModelOverride } from '../model-registry/model-info.js';

/** The recovery cascade's config key (`hooks.anthropic-auto-compact`), where `maxRecoveries` lands. */
const RECOVERY_HOOK = 'anthropic-auto-compact';

/**
 * The SDK wrappers' deprecated options that still work, folded into the config every integration
 * takes, the same way in each wrapper: `models` into `config.models`, `maxRecoveries` into the cascade's
 * re-sends per incident (`hooks['anthropic-auto-compact'].max_retry_attempts`). What the config sets
 * itself wins over an old option.
 */
export function foldDeprecatedWrapperOptions(
  config: PartialConfig | undefined,
  old: { models?: Readonly<Record<string, ModelOverride>> | undefined; maxRecoveries?: number | undefined },
): PartialConfig | undefined {
  if (old.models === undefined && old.maxRecoveries === undefined) return config;
  const folded: PartialConfig = { ...config };
  if (old.models !== undefined) folded.models = { ...old.models, ...config?.models };
  if (old.maxRecoveries !== undefined) {
    const hooks = folded.hooks ?? {};
    folded.hooks = {
      ...hooks,
      [RECOVERY_HOOK]: { max_retry_attempts: old.maxRecoveries, ...hooks[RECOVERY_HOOK] },
    };
  }
  return folded;
}
