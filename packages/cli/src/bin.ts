#!/usr/bin/env node
import { CtxhostError } from '@ctxhost/core';
import { createProgram } from './program.js';

try {
  await createProgram().parseAsync(process.argv);
} catch (error) {
  process.stderr.write(`ctxhost: ${CtxhostError.isInstance(error) ? `${error.message} [${error.code}]` : (error as Error).message}\n`);
  process.exitCode = 1;
}
