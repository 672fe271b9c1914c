import type { OpencodeConfig } from './opencode-config.js';
import type { OpencodeModelRef } from './opencode-actions.js';

/**
 * The model opencode summarizes a session with: the one configured for the
 * session's agent (`hooks.opencode.compaction_model.<agent>`), else the one for
 * `default`, else the session's own model.
 */
export function compactionModelFor(
  config: Pick<OpencodeConfig, 'compaction_model'>,
  agent: string | undefined,
  sessionModel: OpencodeModelRef | undefined,
): OpencodeModelRef | undefined {
  const configured =
    (agent === undefined ? undefined : config.compaction_model[agent]) ?? config.compaction_model['default'];
  if (configured === undefined) return sessionModel;
  const slash = configured.indexOf('/');
  return { providerID: configured.slice(0, slash), modelID: configured.slice(slash + 1) };
}
