import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { corpus, runCtxhostInProcess, type BinResult } from './cli-run-bin.js';

/** The installed bin's launcher: it exists before any build, so `pnpm install` links it. */
const LAUNCHER = fileURLToPath(new URL('../packages/cli/bin/ctxhost.js', import.meta.url));

function runLauncher(args: readonly string[]): Promise<BinResult> {
  const child = spawn(process.execPath, [LAUNCHER, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', CTXHOST_CLI_SOURCE: '1' },
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

describe('the ctxhost bin before a build', () => {
  it('runs the command line from its sources and passes its exit code on', async () => {
    // Both at once: the test runs one file at a time (one worker on 2 cores), the children use the other core.
    const [ok, missing] = await Promise.all([
      runLauncher(['inspect', corpus('claude-code/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl'), '--json']),
      runLauncher(['inspect', 'missing.jsonl']),
    ]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ format: 'claude-code' });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^ctxhost: transcript missing\.jsonl: cannot read the file/);
  });
});

describe('--json on failure', () => {
  it('prints the error as one JSON object on stdout, with the same exit code', async () => {
    const { code, stdout, stderr } = await runCtxhostInProcess(['inspect', 'missing.jsonl', '--json']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^ctxhost: transcript missing\.jsonl/);
    expect(JSON.parse(stdout)).toEqual({
      error: { code: 'CTXHOST_TRANSCRIPT_UNREADABLE', message: expect.stringContaining('missing.jsonl'), exitCode: 1 },
    });
  });

  it('prints a usage error as a JSON object too, exit code 2', async () => {
    const { code, stdout } = await runCtxhostInProcess([
      'replay',
      corpus('claude-code/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl'),
      '--window',
      'lots',
      '--json',
    ]);
    expect(code).toBe(2);
    expect(JSON.parse(stdout)).toEqual({
      error: { code: 'CTXHOST_CLI_USAGE', message: expect.stringContaining('--window'), exitCode: 2 },
    });
  });

  it('prints nothing on stdout without --json', async () => {
    expect((await runCtxhostInProcess(['inspect', 'missing.jsonl'])).stdout).toBe('');
  });
});
