import { Command } from 'commander';
import { registerDemoCommand } from './commands/demo.js';
import { registerStoreCommand } from './commands/store.js';

/** The `ctxhost` command line; each subcommand lives in src/commands/. */
export function createProgram(write: (text: string) => void = (text) => process.stdout.write(text)): Command {
  const program = new Command('ctxhost').description('context management for LLM agents: import, inspect and compact transcripts').showHelpAfterError();
  registerDemoCommand(program, write);
  registerStoreCommand(program, write);
  return program;
}
