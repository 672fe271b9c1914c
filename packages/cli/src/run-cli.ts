import { CommanderError } from 'commander';
import { CLI_ERROR_CODES, CliExit } from './errors.js';
import { createProgram } from './program.js';
import { formatCliError, formatJsonError, processIo, type CliIo } from './output/index.js';

/**
 * Runs the command line and returns its exit code: 0, 1 for a failure, 2 for
 * a usage error (commander has printed it with a help hint). Errors become one
 * `ctxhost: …` line each on stderr; `--debug` adds the stack and causes. With
 * `--json`, stdout gets the error as one JSON document too, so a script reading
 * stdout never gets nothing.
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const program = createProgram(io);
  const json = wantsJson(argv);
  try {
    await program.parseAsync([...argv]);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      const exitCode = error.exitCode === 0 ? 0 : 2;
      if (json && exitCode !== 0)
        io.out.write(
          formatJsonError({ code: CLI_ERROR_CODES.usage, message: error.message.replace(/^error: /, ''), exitCode }),
        );
      return exitCode;
    }
    if (CliExit.isInstance(error)) return error.exitCode;
    const debug = program.opts<{ debug?: boolean }>().debug === true || argv.includes('--debug');
    const formatted = formatCliError(error, { debug });
    io.err.write(io.err.colors.red(formatted.text));
    if (json) io.out.write(formatJsonError(formatted.json));
    return formatted.exitCode;
  }
}

/** `--json` among the options (not after a `--`, where it would be an argument). */
function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}
