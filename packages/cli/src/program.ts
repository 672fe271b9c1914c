import { createRequire } from 'node:module';
import { Command } from 'commander';
import { registerCompactCommand } from './commands/compact.js';
import { registerConfigCommand } from './commands/config.js';
import { registerDemoCommand } from './commands/demo.js';
import { registerEvalCommand } from './commands/eval.js';
import { registerGatewayCommand } from './commands/gateway.js';
import { registerInspectCommand } from './commands/inspect.js';
import { registerReplayCommand } from './commands/replay.js';
import { registerShowCommand } from './commands/show.js';
import { registerSimulatorCommand } from './commands/simulator.js';
import { registerStoreCommand } from './commands/store.js';
import { processStream, textStream, type CliIo } from './output/index.js';

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/**
 * The `ctxhost` command line; each subcommand lives in src/commands/. Pass a
 * function to collect stdout as text (tests), or a CliIo for both streams.
 * Usage errors throw commander's CommanderError (exitOverride), after commander
 * has printed the message and a help hint.
 */
export function createProgram(
  output: ((text: string) => void) | CliIo = (text) => process.stdout.write(text),
): Command {
  const io: CliIo =
    typeof output === 'function' ? { out: textStream(output), err: processStream(process.stderr) } : output;
  const program = new Command('ctxhost')
    .description(
      'context management for LLM agents: inspect, replay and compact agent transcripts, check the config, run the simulator',
    )
    .version(version)
    .option('--debug', 'print stack traces and causes with errors')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.out.write(text),
      writeErr: (text) => io.err.write(text),
      outputError: (text, write) => write(io.err.colors.red(text)),
    });
  const write = (text: string): void => io.out.write(text);
  registerInspectCommand(program, io);
  registerCompactCommand(program, io);
  registerConfigCommand(program, io);
  registerSimulatorCommand(program, io);
  registerGatewayCommand(program, io);
  registerReplayCommand(program, io);
  registerDemoCommand(program, io);
  registerShowCommand(program, io);
  registerEvalCommand(program, io);
  registerStoreCommand(program, write);
  return program;
}
