import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { CTXHOST_BIN } from '../cli-run-bin.js';

const tsx = createRequire(import.meta.url).resolve('tsx');

export interface GatewayProcess {
  child: ChildProcess;
  url: Promise<string>;
  exit: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** Starts `ctxhost gateway …args` as a process and resolves `url` once it says where it listens. */
export function startGatewayProcess(
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): GatewayProcess {
  const child = spawn(
    process.execPath,
    ['--import', tsx, '--conditions=@ctxhost/source', CTXHOST_BIN, 'gateway', ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: options.cwd ?? process.cwd(),
      env: { ...process.env, NO_COLOR: '1', ...options.env },
    },
  );
  let stdout = '';
  let stderr = '';
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
      if (found !== undefined) resolve(found);
    });
    child.once('exit', () => reject(new Error(`ctxhost gateway exited before printing its URL: ${stdout}${stderr}`)));
  });
  url.catch(() => undefined);
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, url, exit };
}
