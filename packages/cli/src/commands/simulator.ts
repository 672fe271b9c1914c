import { Option, type Command } from 'commander';
import {
  LONG_RUNNING_RECORDING,
  SimulatorError,
  startSimulator,
  type OverflowStyle,
  type Simulator,
  type SimulatorOptions,
} from '@ctxhost/simulator';
import { CLI_ERROR_CODES, CliError } from '../errors.js';
import { formatCount } from '../format-table.js';
import type { CliIo } from '../output/index.js';
import { wholeNumberFlag } from '../parse-flags.js';
import { untilStopSignal } from '../until-stop-signal.js';

export interface SimulatorCommandOptions {
  port: number;
  host: string;
  contextLimit?: number;
  /** The old name of `--context-limit` (the `ctxhost-simulator` bin and the library say `contextLimit`): warns once. */
  window?: number;
  overflowStyle: OverflowStyle;
  acceptAnyModel?: boolean;
}

/** The limit when none is given: Claude's 200k window. */
const DEFAULT_CONTEXT_LIMIT = 200_000;

/** `ctxhost simulator`: a local Anthropic Messages API for a person's own agent, until Ctrl+C or SIGTERM. */
export function registerSimulatorCommand(program: Command, io: CliIo): void {
  program
    .command('simulator')
    .description(
      'start the simulator, a local server that speaks the Anthropic Messages API with a context limit and the real errors, for your own agent (ANTHROPIC_BASE_URL)',
    )
    .option('--port <n>', 'the port; 0 picks a free one', wholeNumberFlag(0, 65_535), 0)
    .option('--host <address>', 'the address to listen on', '127.0.0.1')
    .option(
      '--context-limit <tokens>',
      `the context limit the simulator enforces: a prompt over it fails (default ${formatCount(DEFAULT_CONTEXT_LIMIT)})`,
      wholeNumberFlag(1),
    )
    .addOption(new Option('--window <tokens>', 'deprecated: --context-limit').argParser(wholeNumberFlag(1)).hideHelp())
    .option(
      '--accept-any-model',
      'answer any model name (default: as the API does, a model it does not serve gets a 404 not_found_error)',
    )
    .addOption(
      new Option('--overflow-style <style>', 'how a prompt over the window fails')
        .choices(['prompt_too_long', 'input_plus_max_tokens', 'stop_reason'])
        .default('prompt_too_long'),
    )
    .addHelpText(
      'after',
      '\nExample:\n  ctxhost simulator --port 8787 --context-limit 50000\n  ANTHROPIC_BASE_URL=http://127.0.0.1:8787 ANTHROPIC_API_KEY=offline my-agent',
    )
    .action(async (options: SimulatorCommandOptions) => {
      if (options.window !== undefined)
        io.err.write(
          `ctxhost: --window is deprecated for \`ctxhost simulator\`; use --context-limit (the same limit, as the ctxhost-simulator bin names it)\n`,
        );
      const contextLimit = options.contextLimit ?? options.window ?? DEFAULT_CONTEXT_LIMIT;
      const simulator = await start(options, contextLimit);
      // Listen for the signals before saying how to stop: until a listener exists, SIGINT kills the process outright.
      const stopped = untilStopSignal();
      io.out.write(startedText(simulator, options, contextLimit, io));
      const signal = await stopped;
      await simulator.close();
      const { stats } = simulator;
      const statuses = Object.entries(stats.byStatus)
        .map(([status, count]) => `${count} × ${status}`)
        .join(', ');
      io.err.write(
        `ctxhost simulator stopped (${signal}) after ${formatCount(stats.requests)} requests${statuses === '' ? '' : ` (${statuses})`}\n`,
      );
    });
}

/** What `ctxhost simulator` starts the simulator with: a long-running one's recording bounds, as the bin has. */
export function simulatorCommandOptions(options: SimulatorCommandOptions, contextLimit: number): SimulatorOptions {
  return {
    ...LONG_RUNNING_RECORDING,
    port: options.port,
    host: options.host,
    contextLimit,
    overflowStyle: options.overflowStyle,
    acceptAnyModel: options.acceptAnyModel === true,
  };
}

async function start(options: SimulatorCommandOptions, contextLimit: number): Promise<Simulator> {
  try {
    return await startSimulator(simulatorCommandOptions(options, contextLimit));
  } catch (error) {
    // The simulator wraps a listen error in a SimulatorError; its cause carries the system code.
    const code = errnoCode(error) ?? errnoCode((error as { cause?: unknown }).cause);
    if (code === 'EADDRINUSE')
      throw new CliError(
        CLI_ERROR_CODES.usage,
        `simulator: ${options.host}:${options.port} is in use; choose another --port (0 picks a free one)`,
        { cause: error },
      );
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
      throw new CliError(CLI_ERROR_CODES.usage, `simulator: cannot listen on --host ${options.host} (${code})`, {
        cause: error,
      });
    if (SimulatorError.isInstance(error))
      throw new CliError(CLI_ERROR_CODES.usage, `simulator: ${error.message}`, { cause: error });
    throw error;
  }
}

function errnoCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('E') && !code.startsWith('E_') ? code : undefined;
}

function startedText(simulator: Simulator, options: SimulatorCommandOptions, contextLimit: number, io: CliIo): string {
  const { bold, dim } = io.out.colors;
  return [
    bold(`ctxhost simulator listening on ${simulator.url}`) +
      ` (context limit ${formatCount(contextLimit)} tokens, overflow style ${options.overflowStyle})`,
    'Point your agent at it:',
    `  export ANTHROPIC_BASE_URL=${simulator.url}`,
    '  export ANTHROPIC_API_KEY=offline   # any value: the simulator does not check it',
    `  or in code: new Anthropic({ baseURL: '${simulator.url}', apiKey: 'offline' })`,
    dim('Stop with Ctrl+C.'),
    '',
  ].join('\n');
}
