import { join, resolve } from 'node:path';
import { CtxhostError, formatConfigWarning, type ConfigIssue, type ConfigWarning } from '@ctxhost/core';
import type { Command } from 'commander';
import { configValues, toFileShape, type ConfigValue } from '../config-values.js';
import { CliExit } from '../errors.js';
import { displayPath } from '../display-path.js';
import { formatTable } from '../format-table.js';
import { loadCliConfig } from '../load-cli-config.js';
import { formatJson, type CliIo } from '../output/index.js';

interface CheckOptions {
  cwd: string;
  json?: boolean;
}

/** `ctxhost config check`: validates the user and project config files and shows where each merged value came from. */
export function registerConfigCommand(program: Command, io: CliIo): void {
  const config = program.command('config').description('check the ctxhost configuration');
  config
    .command('check')
    .description(
      'validate the config files (project .ctxhost/config.yaml over the user config.yaml), print the merged config and where each value came from',
    )
    .option('--cwd <dir>', 'the project folder', process.cwd())
    .option('--json', 'print the result as JSON (also when the config is invalid)')
    .addHelpText(
      'after',
      '\nThe user file is config.yaml in the env-paths config folder for ctxhost, or in CTXHOST_CONFIG_DIR.\nExample:\n  ctxhost config check --cwd ~/my-project',
    )
    .action(async (options: CheckOptions) => {
      const cwd = resolve(options.cwd);
      const loaded = await loadCliConfig({ cwd: options.cwd }).catch((error: unknown) => {
        if (options.json && hasIssues(error)) return error;
        throw error;
      });
      if (hasIssues(loaded)) {
        io.out.write(formatJson({ valid: false, code: loaded.code, issues: loaded.issues }));
        throw new CliExit(1);
      }
      const files = loaded.files.map((path) => ({ path, level: levelOf(path, cwd) }));
      const values = configValues(loaded.config, loaded.sources);
      if (options.json)
        io.out.write(
          formatJson({
            valid: true,
            files,
            config: toFileShape(loaded.config),
            values,
            warnings: loaded.warnings,
            refused: loaded.refused,
            projectTrusted: loaded.projectTrusted,
          }),
        );
      else io.out.write(renderCheck(files, values, cwd, io, loaded.warnings));
    });
}

function hasIssues(value: unknown): value is CtxhostError & { issues: readonly ConfigIssue[] } {
  return CtxhostError.isInstance(value) && Array.isArray((value as { issues?: unknown }).issues);
}

function levelOf(path: string, cwd: string): 'project' | 'user' {
  return path.startsWith(join(cwd, '.ctxhost')) ? 'project' : 'user';
}

function renderCheck(
  files: readonly { path: string; level: string }[],
  values: readonly ConfigValue[],
  cwd: string,
  io: CliIo,
  warnings: readonly ConfigWarning[],
): string {
  const { bold, green, dim, yellow } = io.out.colors;
  const fileLines =
    files.length === 0
      ? [
          'no config files found (.ctxhost/config.yaml in the project, config.yaml in the user config folder or CTXHOST_CONFIG_DIR); every value is a default',
        ]
      : ['files, later wins:', ...files.map((file) => `  ${file.level.padEnd(7)}  ${displayPath(file.path, cwd)}`)];
  const rows = values.map((value) => [
    value.key,
    shorten(JSON.stringify(value.value)),
    value.source === 'default'
      ? 'default'
      : value.source
          .split(', ')
          .map((file) => displayPath(file, cwd))
          .join(', '),
  ]);
  const table = formatTable([{ header: 'key' }, { header: 'value' }, { header: 'from' }], rows)
    .split('\n')
    .map((line) => (line.endsWith(' default') ? dim(line) : line))
    .join('\n');
  const warningLines = warnings.map((warning) => yellow(`warning: ${formatConfigWarning(warning)}`));
  return [
    green(
      bold(
        `ctxhost config check: valid${warnings.length > 0 ? ` (${warnings.length} warning${warnings.length === 1 ? '' : 's'})` : ''}`,
      ),
    ),
    ...warningLines,
    ...fileLines,
    '',
    table,
    '',
  ].join('\n');
}

/** Long values (a pricing table) are cut in the table; `--json` has them whole. */
function shorten(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
