// Runs a package's command line: its built entry once `pnpm build` has made it, else its
// TypeScript source through tsx (the workspace's own dev dependency). Each package's bin is a
// small committed launcher that calls this, so the file a bin points at exists before any build
// and `pnpm install` in a fresh clone links it. Plain JavaScript, shipped as is: it has to run
// before the build. Installed from npm, `dist` is always there and the sources never are.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * @param {{ name: string, built: URL, source: URL, forceSourceVariable: string }} command
 *   `name` prefixes the error when the command can run neither way; `forceSourceVariable` names
 *   the environment variable that, set to `1`, runs the sources even when a (stale) build exists.
 * @returns {Promise<void>}
 */
export async function launchBin({ name, built, source, forceSourceVariable }) {
  if (process.env[forceSourceVariable] !== '1' && existsSync(fileURLToPath(built))) {
    await import(built.href);
  } else {
    runFromSource(name, source);
  }
}

/**
 * @param {string} name
 * @param {URL} source
 */
function runFromSource(name, source) {
  let tsx;
  try {
    tsx = import.meta.resolve('tsx');
  } catch {
    process.stderr.write(
      `${name}: the command is not built and tsx was not found to run its sources; run \`npx -y pnpm@10 build\` in the ctxhost folder first\n`,
    );
    process.exit(1);
  }
  const child = spawn(
    process.execPath,
    ['--import', tsx, '--conditions=@ctxhost/source', fileURLToPath(source), ...process.argv.slice(2)],
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
