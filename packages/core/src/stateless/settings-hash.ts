import { createHash } from 'node:crypto';
import type { Host } from '../host/host.js';

/**
 * A hash of what makes a projection: the engine, the compression and hook settings, the disabled
 * hooks and the window. A cached compaction is used only under the settings that made it.
 */
export function settingsHash(host: Host, contextWindow: number | undefined): string {
  const { compression, hooks, auxiliary, disabledHooks } = host.config;
  const text = JSON.stringify([
    host.engine.name,
    compression,
    auxiliary,
    hooks,
    disabledHooks,
    host.plugins,
    contextWindow ?? null,
  ]);
  return `s-${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
}
