import { join } from 'node:path';
import { autoCompactConfigSection } from '@ctxhost/auto-compact';
import { formatConfigWarning, loadConfig, type ConfigWarning, type LoadedConfig } from '@ctxhost/core';
import { monitorConfigSection } from '@ctxhost/context-window-monitor';
import { preemptiveConfigSection } from '@ctxhost/preemptive-compaction';
import { truncatorConfigSection } from '@ctxhost/tool-output-truncator';
import { createHostLogger } from './host-logger.js';
import type { OpencodeClient } from './opencode-actions.js';
import { opencodeConfigSection } from './opencode-config.js';

/** The project file read after `.ctxhost/config.yaml`, for people who keep everything under `.opencode/`. */
export const OPENCODE_CONFIG_FILE = join('.opencode', 'ctxhost.yaml');

export interface LoadOpencodeConfigOptions {
  /** The opencode project directory. */
  directory: string;
  /** The folder of the user `config.yaml` (default: ctxhost's env-paths config folder, or `CTXHOST_CONFIG_DIR`). */
  userConfigDir?: string;
  env?: Readonly<Record<string, string | undefined>>;
  /** When given, the config's warnings (an unknown name in `disabled_hooks`, …) go to opencode's log and a toast. */
  client?: OpencodeClient;
}

/**
 * ctxhost's config as the plugin sees it: the user file, then
 * `.ctxhost/config.yaml`, then `.opencode/ctxhost.yaml` (later wins, key by
 * key), with the hook sections validated. Problems are one ConfigError;
 * warnings are said once, to `options.client`, and the config is used.
 */
export async function loadOpencodeConfig(options: LoadOpencodeConfigOptions): Promise<LoadedConfig> {
  const loaded = await loadConfig({
    cwd: options.directory,
    sections: [
      monitorConfigSection,
      preemptiveConfigSection,
      truncatorConfigSection,
      autoCompactConfigSection,
      opencodeConfigSection,
    ],
    extraFiles: [join(options.directory, OPENCODE_CONFIG_FILE)],
    ...(options.userConfigDir === undefined ? {} : { userConfigDir: options.userConfigDir }),
    ...(options.env === undefined ? {} : { env: options.env }),
  });
  if (options.client !== undefined) reportConfigWarnings(loaded.warnings, options.client);
  return loaded;
}

/** As the CLI prints them: one log line each, plus one toast listing them all (not awaited: opencode is still loading). */
function reportConfigWarnings(warnings: readonly ConfigWarning[], client: OpencodeClient): void {
  if (warnings.length === 0) return;
  const lines = warnings.map((warning) => `ctxhost: warning: ${formatConfigWarning(warning)}`);
  const logger = createHostLogger(client);
  for (const line of lines) logger.warn(line);
  void client.tui
    .showToast({ body: { title: 'ctxhost config', message: lines.join('\n'), variant: 'warning' } })
    .catch(() => undefined);
}
