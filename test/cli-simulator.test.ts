import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import Anthropic from '@anthropic-ai/sdk';
import { startSimulator } from '@ctxhost/simulator';
import { afterAll, describe, expect, it } from 'vitest';
import { CTXHOST_BIN, runCtxhostInProcess } from './cli-run-bin.js';

const tsx = createRequire(import.meta.url).resolve('tsx');
const children = new Set<ChildProcess>();

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Starts `ctxhost simulator …` and resolves with its URL once the first line is printed. */
function startBin(args: string[]): {
  child: ChildProcess;
  url: Promise<string>;
  exit: Promise<{ code: number | null; stdout: string; stderr: string }>;
} {
  const process = spawn(
    globalThis.process.execPath,
    ['--import', tsx, '--conditions=@ctxhost/source', CTXHOST_BIN, 'simulator', ...args],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...globalThis.process.env, NO_COLOR: '1' } },
  );
  children.add(process);
  let stdout = '';
  let stderr = '';
  const url = new Promise<string>((resolve, reject) => {
    process.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
      if (found !== undefined && stdout.includes('Stop with Ctrl+C')) resolve(found);
    });
    process.once('exit', () =>
      reject(new Error(`ctxhost simulator exited before printing its URL: ${stdout}${stderr}`)),
    );
  });
  url.catch(() => undefined);
  process.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    process.once('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { child: process, url, exit };
}

// The two processes run at once: the tests run one file at a time (one worker on 2 cores), the children use the other core.
describe.concurrent('ctxhost simulator as a process', () => {
  it('serves the Messages API at the printed URL with the given window, says how to point the SDK at it, and stops cleanly on SIGTERM', async ({
    expect,
  }) => {
    const { child, url, exit } = startBin(['--port', '0', '--context-limit', '60']);
    const baseURL = await url;
    const client = new Anthropic({ apiKey: 'offline', baseURL, maxRetries: 0 });
    await expect(
      client.messages.create({
        model: 'claude-sonnet-4-6',
        max_tokens: 5,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ).resolves.toMatchObject({ type: 'message' });
    const error = await client.messages
      .create({ model: 'claude-sonnet-4-6', max_tokens: 5, messages: [{ role: 'user', content: 'word '.repeat(200) }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(String((error as Error).message)).toMatch(/prompt is too long: \d+ tokens > 60 maximum/);
    child.kill('SIGTERM');
    const { code, stdout, stderr } = await exit;
    expect(code).toBe(0);
    expect(stdout).toContain(`export ANTHROPIC_BASE_URL=${baseURL}\n`);
    expect(stdout).toMatch(/context limit 60 tokens/);
    expect(stderr).toBe('ctxhost simulator stopped (SIGTERM) after 2 requests (1 × 200, 1 × 400)\n');
  });

  it('stops cleanly on SIGINT (Ctrl+C); --window is the deprecated name of --context-limit, said once', async ({
    expect,
  }) => {
    const { child, url, exit } = startBin(['--window', '70']);
    await url;
    child.kill('SIGINT');
    const { code, stdout, stderr } = await exit;
    expect(code).toBe(0);
    expect(stdout).toMatch(/context limit 70 tokens/);
    expect(stderr).toBe(
      'ctxhost: --window is deprecated for `ctxhost simulator`; use --context-limit (the same limit, as the ctxhost-simulator bin names it)\n' +
        'ctxhost simulator stopped (SIGINT) after 0 requests\n',
    );
  });
});

describe('ctxhost simulator', () => {
  it.each([
    [
      ['--port', '70000'],
      /^error: option '--port <n>' argument '70000' is invalid\. expected a whole number from 0 to 65535/,
    ],
    [
      ['--overflow-style', 'loud'],
      /^error: option '--overflow-style <style>' argument 'loud' is invalid\. Allowed choices are prompt_too_long, input_plus_max_tokens, stop_reason\./,
    ],
    [['--colour'], /^error: unknown option '--colour'\n\(run with --help for usage\)/],
  ])('refuses %j with exit code 2', async (args, message) => {
    const { code, stderr } = await runCtxhostInProcess(['simulator', ...args]);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('says when the port is in use, exit code 2', async () => {
    const taken = await startSimulator();
    try {
      const port = new URL(taken.url).port;
      const { code, stderr } = await runCtxhostInProcess(['simulator', '--port', port]);
      expect(code).toBe(2);
      expect(stderr).toBe(
        `ctxhost: simulator: 127.0.0.1:${port} is in use; choose another --port (0 picks a free one) [CTXHOST_CLI_USAGE]\n`,
      );
    } finally {
      await taken.close();
    }
  });
});
