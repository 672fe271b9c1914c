import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { startSimulator } from '@ctxhost/simulator';
import { describe, expect, it } from 'vitest';
import { corpus, runCtxhost, runCtxhostInProcess } from './cli-run-bin.js';
import { useCliScratch } from './support/use-cli-scratch.js';

const openhands = corpus('openhands/multi-swe-bench-output.jsonl');
let folder: string;

useCliScratch('ctxhost-compact-', async (scratch) => {
  folder = scratch;
  await writeFile(join(folder, 'window.yaml'), 'model:\n  context_length: 30000\n');
  await writeFile(join(folder, 'invalid.yaml'), 'compression:\n  protect_last_n: 0\n');
  await writeFile(join(folder, 'unknown-engine.yaml'), 'context:\n  engine: no-such-engine\n');
  const runs = (await readFile(openhands, 'utf8')).split('\n');
  await writeFile(join(folder, 'broken.jsonl'), ['{"instance_id": ', ...runs].join('\n'));
});

describe('ctxhost compact', () => {
  it('writes the compacted conversation as Anthropic JSON that the API accepts, and prints tokens before and after', async () => {
    const out = join(folder, 'compacted.json');
    const { code, stdout, stderr } = await runCtxhost(['compact', openhands, '--window', '20000', '--out', out], {
      cwd: folder,
      env: { CTXHOST_CONFIG_DIR: join(folder, 'user') },
    });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(/with the compressor engine at a 20,000-token window\n/);
    const [, before, after] = /^tokens ([\d,]+) → ([\d,]+) \(/m.exec(stdout) ?? [];
    expect(Number(after?.replaceAll(',', ''))).toBeLessThan(Number(before?.replaceAll(',', '')) / 2);
    expect(stdout).toMatch(/a summary \(extractive\) of \d+ messages/);
    expect(stdout).toMatch(/^wrote compacted\.json \(Anthropic Messages JSON/m);
    const request = JSON.parse(await readFile(out, 'utf8')) as Pick<
      Anthropic.MessageCreateParamsNonStreaming,
      'system' | 'messages'
    >;
    expect(request.messages.at(-1)?.role).toBe('user');
    const simulator = await startSimulator({ contextLimit: 20_000 });
    try {
      const client = new Anthropic({ apiKey: 'offline', baseURL: simulator.url, maxRetries: 0 });
      await expect(
        client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 64, ...request }),
      ).resolves.toMatchObject({ type: 'message' });
    } finally {
      await simulator.close();
    }
  });

  it('--engine none compacts nothing (no compressor in its place)', async () => {
    const { code, stderr } = await runCtxhostInProcess(['compact', openhands, '--window', '20000', '--engine', 'none']);
    expect(code).toBe(0);
    expect(stderr).toMatch(/with the none engine at a 20,000-token window\n/);
    const [, before, after] = /^tokens ([\d,]+) → ([\d,]+) \(/m.exec(stderr) ?? [];
    expect(after).toBe(before);
    expect(stderr).toMatch(/the "none" engine never compresses/);
    expect(stderr).not.toMatch(/compressor/);
  });

  it('writes the conversation to stdout and the summary to stderr without --out', async () => {
    const { code, stdout, stderr } = await runCtxhostInProcess(['compact', openhands, '--window', '20000']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ system: expect.anything(), messages: expect.any(Array) });
    expect(stderr).toMatch(/^tokens [\d,]+ → [\d,]+ /m);
  });

  it('prints the report and the conversation as one JSON document with --json; the window comes from --config', async () => {
    const { code, stdout } = await runCtxhostInProcess([
      'compact',
      openhands,
      '--json',
      '--config',
      join(folder, 'window.yaml'),
    ]);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as {
      report: { tokensBefore: number; tokensAfter: number; durationMs?: number };
      conversation: { messages: unknown[] };
      conversationMessages: number;
    };
    expect(result).toMatchObject({
      file: openhands,
      engine: 'compressor',
      window: 30_000,
      windowSource: 'config',
      fitsWindow: true,
      skipped: 0,
      report: { engine: 'compressor', reason: 'manual', summary: { source: 'extractive' } },
    });
    expect(result.report.tokensAfter).toBeLessThan(result.report.tokensBefore);
    // Run through core's runCompaction (compaction.before, started/failed events), which times it.
    expect(result.report.durationMs).toBeGreaterThanOrEqual(0);
    expect(result.conversation.messages.length).toBeGreaterThan(0);
    expect(result.conversationMessages).toBe(result.conversation.messages.length);
  });

  it('gives the console the counts the JSON gives', async () => {
    const [text, json] = await Promise.all([
      runCtxhostInProcess(['compact', openhands, '--window', '30000']),
      runCtxhostInProcess(['compact', openhands, '--window', '30000', '--json']),
    ]);
    const result = JSON.parse(json.stdout) as {
      report: { messagesBefore: number; messagesAfter: number };
      conversationMessages: number;
    };
    const counts = `messages ${result.report.messagesBefore.toLocaleString('en-US')} → ${result.report.messagesAfter.toLocaleString('en-US')}`;
    expect(text.stderr).toContain(
      result.conversationMessages === result.report.messagesAfter
        ? counts
        : `${counts} (${result.conversationMessages.toLocaleString('en-US')} in the Anthropic JSON`,
    );
  });

  it('says when the result is still over the window', async () => {
    const { code, stderr } = await runCtxhostInProcess([
      'compact',
      corpus('swe-agent/swe-agent__test-repo-i1.traj'),
      '--window',
      '1000',
    ]);
    expect(code).toBe(0);
    expect(stderr).toMatch(
      /^still over the window: [\d,]+ tokens > 1,000; the compressor keeps the first 3 and the last compression\.protect_last_n messages whole$/m,
    );
  });

  it('skips and counts broken lines, and fails on the first one with --strict', async () => {
    const broken = join(folder, 'broken.jsonl');
    const skipping = await runCtxhostInProcess([
      'compact',
      broken,
      '--window',
      '20000',
      '--out',
      join(folder, 'from-broken.json'),
    ]);
    expect(skipping.code).toBe(0);
    expect(skipping.stderr).toBe('ctxhost: 1 broken line skipped (--strict fails instead)\n');
    const strict = await runCtxhostInProcess(['compact', broken, '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(
      /^ctxhost: transcript .*broken\.jsonl:1: .*run without --strict to skip it \[CTXHOST_TRANSCRIPT_INVALID\]\n$/,
    );
  });

  it.each([
    [
      ['--engine', 'nope'],
      2,
      /^ctxhost: --engine nope: context\.engine "nope" was not found: searched .*context_engine\/nope and the engine registry\. Name one of "compressor", "none".* \[CTXHOST_CLI_USAGE\]$/,
    ],
    [
      ['--config', '<folder>/missing.yaml'],
      1,
      /^ctxhost: config \/.*\/missing\.yaml: cannot read the file \(ENOENT\) \[CTXHOST_CLI_FILE_UNREADABLE\]$/,
    ],
    [
      ['--config', '<folder>/invalid.yaml'],
      1,
      /^ctxhost: config \/.*\/invalid\.yaml:2:19 compression\.protect_last_n: expected a whole number of messages, at least 1, got 0 \[CTXHOST_CONFIG_INVALID\]$/,
    ],
    [
      // A config-named engine that is not found is an error too, never a silent fallback to the compressor.
      ['--config', '<folder>/unknown-engine.yaml'],
      1,
      /^ctxhost: context\.engine "no-such-engine" was not found: searched .*context_engine\/no-such-engine and the engine registry\. Name one of "compressor", "none".* \[CTXHOST_ENGINE_NOT_FOUND\]$/,
    ],
    [
      ['--out', '<folder>/no/such/folder/out.json'],
      1,
      /^ctxhost: --out \/.*\/no\/such\/folder\/out\.json: cannot write the file \(ENOENT\) \[CTXHOST_CLI_FILE_UNWRITABLE\]$/,
    ],
    [
      ['--window', 'big'],
      2,
      /^error: option '--window <tokens>' argument 'big' is invalid\. expected a whole number from 1\n\(run with --help for usage\)$/,
    ],
  ])('refuses %j with exit code %i and one line saying what and where', async (args, exitCode, message) => {
    const { code, stdout, stderr } = await runCtxhostInProcess([
      'compact',
      openhands,
      ...args.map((arg) => arg.replace('<folder>', folder)),
    ]);
    expect(code).toBe(exitCode);
    expect(stdout).toBe('');
    expect(stderr.trimEnd()).toMatch(message);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
