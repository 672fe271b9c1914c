import { CommanderError } from 'commander';
import { CliExit } from './errors.js';
import { createProgram } from './program.js';
import { formatCliError, processIo, type CliIo } from './output/index.js';

/**
 * Runs the command line and returns its exit code: 0, 1 for a failure, 2 for
 * a usage error (commander has printed it with a help hint). Errors become one
 * `ctxhost: …` line each; `--debug` adds the stack and causes.
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const program = createProgram(io);
  try {
    await program.parseAsync([...argv]);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (CliExit.isInstance(error)) return error.exitCode;
    const debug = program.opts<{ debug?: boolean }>().debug === true || argv.includes('--debug');
    const formatted = formatCliError(error, { debug });
    io.err.write(io.err.colors.red(formatted.text));
    return formatted.exitCode;
  }
}
