#!/usr/bin/env node
// The `ctxhost` command as installed: this file exists before any build, so `pnpm install`
// links it. It runs the built command line (dist/bin.js); in a fresh clone, before
// `pnpm build`, it runs the TypeScript sources through tsx instead (the workspace's own
// dev dependency). CTXHOST_CLI_SOURCE=1 forces the sources (for a clone whose dist is stale).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = new URL('../dist/bin.js', import.meta.url);
if (process.env.CTXHOST_CLI_SOURCE !== '1' && existsSync(fileURLToPath(built))) {
  await import(built.href);
} else {
  runFromSource();
}

function runFromSource() {
  let tsx;
  try {
    tsx = import.meta.resolve('tsx');
  } catch {
    process.stderr.write(
      'ctxhost: the command line is not built and tsx was not found to run its sources; run `npx -y pnpm@10 build` in the ctxhost folder first\n',
    );
    process.exit(1);
  }
  const source = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
  const child = spawn(
    process.execPath,
    ['--import', tsx, '--conditions=@ctxhost/source', source, ...process.argv.slice(2)],
    { stdio: 'inherit' },
  );
  // Ctrl+C reaches both processes (one terminal group); the child decides how to stop, the launcher waits for it.
  process.on('SIGINT', () => undefined);
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  child.on('exit', (code, signal) => {
    if (signal !== null) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
}
