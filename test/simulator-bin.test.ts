import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, describe, it } from 'vitest';

/** The installed bin's launcher; CTXHOST_SIMULATOR_SOURCE=1 makes it run the sources, built or not. */
const launcher = fileURLToPath(new URL('../packages/simulator/bin/ctxhost-simulator.js', import.meta.url));
const children = new Set<ChildProcess>();

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
});

function run(args: string[]): { process: ChildProcess; output: Promise<string>; firstLine: Promise<string> } {
  const process = spawn(globalThis.process.execPath, [launcher, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...globalThis.process.env, CTXHOST_SIMULATOR_SOURCE: '1' },
  });
  children.add(process);
  let text = '';
  const firstLine = new Promise<string>((resolve, reject) => {
    process.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(text.split('\n')[0]!);
    });
    process.once('exit', () => reject(new Error(`ctxhost-simulator exited before printing its URL: ${text}`)));
  });
  firstLine.catch(() => undefined);
  const output = new Promise<string>((resolve) => {
    let all = '';
    process.stdout.on('data', (chunk: Buffer) => (all += chunk.toString()));
    process.stderr.on('data', (chunk: Buffer) => (all += chunk.toString()));
    process.once('exit', () => resolve(all));
  });
  return { process, output, firstLine };
}

// Concurrent: the tests run one file at a time (one worker on 2 cores); these children use the other core.
describe.concurrent('the ctxhost-simulator bin', () => {
  it('prints its URL and serves the API with the given context limit', async ({ expect }) => {
    const { firstLine } = run(['--port', '0', '--context-limit', '40']);
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(await firstLine)?.[1];
    expect(url).toBeDefined();
    const client = new Anthropic({ apiKey: 'test', baseURL: url!, maxRetries: 0 });
    await expect(
      client.messages.create({
        model: 'claude-sonnet-4-6',
        max_tokens: 5,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ).resolves.toMatchObject({ type: 'message' });
    const error = await client.messages
      .create({ model: 'claude-sonnet-4-6', max_tokens: 5, messages: [{ role: 'user', content: 'word '.repeat(100) }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(String((error as Error).message)).toMatch(/prompt is too long: \d+ tokens > 40 maximum/);
  });

  it.for<[string[], string]>([
    [['--port', 'eighty'], '--port takes a whole number, got "eighty"'],
    [['--context-limit', '0'], 'contextLimit'],
    [['--colour'], "Unknown option '--colour'"],
  ])('refuses %j with exit code 2 and says why', async ([args, text], { expect }) => {
    const { process, output } = run(args);
    const all = await output;
    expect(process.exitCode).toBe(2);
    expect(all).toContain(text);
  });
});
