import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repositoryRoot = fileURLToPath(new URL('../', import.meta.url));
const childScript = fileURLToPath(new URL('./dispose-exit-child.ts', import.meta.url));

let workDirectory: string;
beforeAll(async () => {
  workDirectory = await mkdtemp(join(tmpdir(), 'ctxhost-dispose-'));
});
afterAll(async () => {
  await rm(workDirectory, { recursive: true, force: true });
});

describe('host.dispose()', () => {
  it(
    'leaves no timer or socket behind: a process with a host, an agent and the simulator exits on its own',
    { timeout: 90_000 },
    async () => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', '--conditions=@ctxhost/source', childScript, join(workDirectory, 'sessions')],
        { cwd: repositoryRoot, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let errors = '';
      child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
      const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
        child.once('exit', (code) => resolve({ code, at: Date.now() })),
      );
      const lines: string[] = [];
      let disposedAt: number | undefined;
      const hang = setTimeout(() => child.kill('SIGKILL'), 60_000);
      for await (const line of createInterface({ input: child.stdout })) {
        lines.push(line);
        if (line.startsWith('disposed ')) disposedAt = Date.now();
      }
      const { code, at } = await exited;
      clearTimeout(hang);
      expect(code, errors).toBe(0);
      expect(JSON.parse(lines[0] ?? '{}'), errors).toEqual({ outcomes: ['done', 'done', 'error'] });
      expect(disposedAt, errors).toBeDefined();
      // The child's last line is written after dispose; it must be gone within seconds, not after the one-minute backoff.
      expect(at - disposedAt!).toBeLessThan(5_000);
    },
  );
});
