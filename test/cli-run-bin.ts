import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { textStream } from '../packages/cli/src/output/index.js';
import { runCli } from '../packages/cli/src/run-cli.js';

/** The `ctxhost` bin from its TypeScript source (no build needed). */
export const CTXHOST_BIN = fileURLToPath(new URL('../packages/cli/src/bin.ts', import.meta.url));
const tsx = createRequire(import.meta.url).resolve('tsx');

export const corpus = (path: string): string => fileURLToPath(new URL(`fixtures/corpus/${path}`, import.meta.url));

export interface BinResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `ctxhost …args` as a child process to its end; stdout and stderr are pipes (not a terminal), so no colour. */
export function runCtxhost(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<BinResult> {
  const child = spawn(process.execPath, ['--import', tsx, '--conditions=@ctxhost/source', CTXHOST_BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: options.cwd ?? process.cwd(),
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '', ...options.env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Runs the command line in this process, through the same `runCli` the bin
 * calls, with both streams captured (not a terminal). For the many bad-input
 * cases, where a child process per case would cost seconds each.
 */
export async function runCtxhostInProcess(args: readonly string[]): Promise<BinResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['node', 'ctxhost', ...args], {
    out: textStream((text) => (stdout += text)),
    err: textStream((text) => (stderr += text)),
  });
  return { code, stdout, stderr };
}
