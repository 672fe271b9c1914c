import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { formatConfigWarning, loadConfig, type LoadedConfig } from '@ctxhost/core';
import { builtInConfigSections } from 'ctxhost';
import { CLI_ERROR_CODES, CliError } from './errors.js';
import type { CliStream } from './output/index.js';

export interface CliConfigOptions {
  /** The project folder (its `.ctxhost/config.yaml` wins over the user's file). */
  cwd: string;
  /** `--config file`: read after the user and project files, winning over both; the person named it, so it may load code. */
  configFile?: string;
  /** `--project-plugins`: the person trusts this project for this run (its config's `plugin_dirs` and plugin engine count). */
  trustProject?: boolean;
}

/**
 * Loads the config the way a host would, with every built-in hook's section,
 * so a misspelt hook key is reported with its file, line and column.
 */
export async function loadCliConfig(options: CliConfigOptions): Promise<LoadedConfig> {
  const cwd = await existingDirectory(options.cwd);
  const extraFiles =
    options.configFile === undefined ? [] : [{ path: await existingFile(options.configFile), level: 'user' as const }];
  return loadConfig({
    cwd,
    sections: builtInConfigSections(),
    extraFiles,
    ...(options.trustProject === true ? { trustProject: true } : {}),
  });
}

async function existingDirectory(path: string): Promise<string> {
  const found = await stat(path).catch(() => undefined);
  if (found?.isDirectory() !== true)
    throw new CliError(
      CLI_ERROR_CODES.fileUnreadable,
      `--cwd ${path}: ${found === undefined ? 'no such directory' : 'not a directory'}`,
    );
  return resolve(path);
}

async function existingFile(path: string): Promise<string> {
  const found = await stat(path).catch((error: NodeJS.ErrnoException) => error);
  if (found instanceof Error)
    throw new CliError(
      CLI_ERROR_CODES.fileUnreadable,
      `config ${path}: cannot read the file (${found.code ?? found.message})`,
      { cause: found },
    );
  if (!found.isFile()) throw new CliError(CLI_ERROR_CODES.fileUnreadable, `config ${path}: not a file`);
  return resolve(path);
}

/** A command that runs on the config (replay, compact) says its warnings on stderr, one line each, and goes on. */
export function printConfigWarnings(loaded: Pick<LoadedConfig, 'warnings'>, err: CliStream): void {
  for (const warning of loaded.warnings)
    err.write(err.colors.yellow(`ctxhost: warning: ${formatConfigWarning(warning)}\n`));
}
