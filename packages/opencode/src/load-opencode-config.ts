import { join } from 'node:path';
import { autoCompactConfigSection } from '@ctxhost/auto-compact';
import { loadConfig, type LoadedConfig } from '@ctxhost/core';
import { monitorConfigSection } from '@ctxhost/context-window-monitor';
import { preemptiveConfigSection } from '@ctxhost/preemptive-compaction';
import { truncatorConfigSection } from '@ctxhost/tool-output-truncator';
import { opencodeConfigSection } from './opencode-config.js';

/** The project file read after `.ctxhost/config.yaml`, for people who keep everything under `.opencode/`. */
export const OPENCODE_CONFIG_FILE = join('.opencode', 'ctxhost.yaml');

export interface LoadOpencodeConfigOptions {
  /** The opencode project directory. */
  directory: string;
  /** The folder of the user `config.yaml` (default: ctxhost's env-paths config folder, or `CTXHOST_CONFIG_DIR`). */
  userConfigDir?: string;
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * ctxhost's config as the plugin sees it: the user file, then
 * `.ctxhost/config.yaml`, then `.opencode/ctxhost.yaml` (later wins, key by
 * key), with the hook sections validated. Problems are one ConfigError.
 */
export function loadOpencodeConfig(options: LoadOpencodeConfigOptions): Promise<LoadedConfig> {
  return loadConfig({
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
}
