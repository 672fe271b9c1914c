#!/usr/bin/env node
import { CtxhostError } from '@ctxhost/core';
import { runMigrateCommand } from './migrate-command.js';

try {
  process.stdout.write(await runMigrateCommand(process.argv.slice(2)));
} catch (error) {
  process.stderr.write(`${CtxhostError.isInstance(error) ? `${error.code}: ` : ''}${(error as Error).message}\n`);
  process.exitCode = 1;
}
