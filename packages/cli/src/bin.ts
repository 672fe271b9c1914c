#!/usr/bin/env node
import { runCli } from './run-cli.js';

// `ctxhost compact x | head`: the reader went away; that is not a failure worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

process.exitCode = await runCli(process.argv);
