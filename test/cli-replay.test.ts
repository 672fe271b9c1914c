import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../packages/cli/src/run-cli.js';
import { textStream } from '../packages/cli/src/output/index.js';

const bin = fileURLToPath(new URL('../packages/cli/src/bin.ts', import.meta.url));
const tsx = createRequire(import.meta.url).resolve('tsx');
const transcript = fileURLToPath(
  new URL('./fixtures/corpus/claude-code/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl', import.meta.url),
);
let folder: string;
let text: Promise<{ code: number; stdout: string; stderr: string }>;
let json: Promise<{ code: number; stdout: string; stderr: string }>;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'ctxhost-cli-replay-'));
  // Both child processes at once: most of their time is loading TypeScript sources.
  // The stand-in for Claude Code's unlogged system prompt (16k tokens) alone would overflow an 8,000-token window.
  text = ctxhost('replay', transcript, '--window', '8000', '--api-limit', '6500', '--no-reconstruct');
  json = ctxhost(
    'replay',
    transcript,
    '--window',
    '8000',
    '--api-limit',
    '6500',
    '--json',
    '--report',
    'out.html',
    '--no-reconstruct',
  );
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** The bin as a person runs it, in an empty folder with no user config. */
function ctxhost(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const { ANTHROPIC_API_KEY: _key, ...inherited } = process.env;
    const env = { ...inherited, CTXHOST_CONFIG_DIR: folder, NO_COLOR: '1' };
    execFile(
      process.execPath,
      ['--import', tsx, '--conditions=@ctxhost/source', bin, ...args],
      { cwd: folder, env, timeout: 50_000 },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
      },
    );
  });
}

describe('ctxhost replay (child process, a Claude Code session with two subagents)', () => {
  it('prints each compaction, overflow and recovery as it happens, then the summary', async () => {
    const { code, stdout, stderr } = await text;
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ctxhost replay: .*5c0375b4-57a5-4f26-b12d-d022ee4e51b7\.jsonl$/m);
    expect(stdout).toMatch(/window 8,000 tokens, the simulated API stops at 6,500/);
    // The subagents (11 and 15 messages) fit in protect_last_n; a cut that would save under 10% is widened
    // below it or not made, so a subagent compaction, if any, saves at least a tenth.
    for (const [, before, after] of stdout.matchAll(
      /replay\/subagent-\d {2}compaction \(threshold, compressor\): ([\d,]+) → ([\d,]+) tokens/g,
    )) {
      expect(Number(after!.replace(/,/g, ''))).toBeLessThanOrEqual(0.9 * Number(before!.replace(/,/g, '')));
    }
    expect(stdout).toMatch(/^ {2}call +\d+ {2}replay {2}compaction \(hygiene, compressor\): [\d,]+ → [\d,]+ tokens/m);
    expect(stdout).toMatch(/overflow: prompt is too long: \d+ tokens > 6500 maximum/);
    expect(stdout).toMatch(/recovered: Recovered after .+; the session answered again\./);
    expect(stdout).toContain(
      'replayed 20 of 20 recorded assistant turns in 3 sessions (the main thread and 2 subagents)',
    );
    expect(stdout).toMatch(/overflows 1, recovered 1/);
    // A compaction not done is said once per session; the summary counts them all.
    const notDone = [...stdout.matchAll(/^ {2}call +\d+ {2}(\S+) {2}toast \[info\] Compaction not done: /gm)].map(
      (m) => m[1],
    );
    expect(new Set(notDone).size).toBe(notDone.length);
    expect(stdout).toMatch(
      /^ {2}compactions \d+ \(engine compressor, [^)]*\); [1-9]\d* tried and not done \(each session said why once\)$/m,
    );
    expect(stdout).not.toMatch(/saved under 10%.*saved under 10%/);
    expect(stdout).toMatch(
      /^ {2}cost \$\d+\.\d\d with caching, \$\d+\.\d\d without \(caching saved -?\$?[\d.-]+; each call priced as its recorded turn's model: claude-sonnet-4-20250514 20 calls\)$/m,
    );
    expect(stdout).toMatch(
      /^ {2}summarizer [1-9]\d* calls?, [\d,]+ prompt and [\d,]+ output tokens, \$\d+\.\d\d on top of the cost above$/m,
    );
  });

  it('with --json prints one JSON document, and --report writes the HTML report with both charts', async () => {
    const { code, stdout } = await json;
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as Record<string, unknown> & {
      points: { call: number; contextTokens: number }[];
      events: { kind: string; call: number; sessionId: string; answeredAt?: number }[];
      cost: Record<string, unknown>;
    };
    expect(result).toMatchObject({
      transcript,
      format: 'claude-code',
      window: 8000,
      contextLimit: 6500,
      engine: 'compressor',
      sessions: 3,
      recordedTurns: 20,
      answeredTurns: 20,
      overflows: 1,
      recoveries: 1,
      report: join(folder, 'out.html'),
    });
    expect(result.points).toHaveLength(20);
    expect(
      result.points.every(
        (point, index) => point.call === index + 1 && point.contextTokens > 0 && point.contextTokens <= 6500,
      ),
    ).toBe(true);
    expect(result.events.map((event) => event.kind)).toEqual(
      expect.arrayContaining(['compaction', 'overflow', 'recovery']),
    );
    const overflow = result.events.find((event) => event.kind === 'overflow');
    const recovery = result.events.find((event) => event.kind === 'recovery');
    expect(recovery?.sessionId).toBe(overflow?.sessionId);
    expect(recovery?.answeredAt).toBeGreaterThan(overflow!.call);
    expect(recovery?.answeredAt).toBeLessThanOrEqual(recovery!.call);
    expect(Object.keys(result.cost).sort()).toEqual([
      'byModel',
      'cacheHitRatio',
      'dollars',
      'dollarsSaved',
      'requests',
      'tokens',
      'withoutCaching',
    ]);
    const html = await readFile(join(folder, 'out.html'), 'utf8');
    expect(html).toMatch(/<svg[^>]*id="context-chart"/);
    expect(html).toMatch(/<svg[^>]*id="cost-chart"/);
    expect(html.match(/class="context-line"/g)).toHaveLength(3);
    expect(html).toMatch(/class="mark mark-overflow"/);
    expect(html).toMatch(/<table id="compactions">/);
  });
});

describe('ctxhost replay --warm-start', () => {
  const warmRecorded = fileURLToPath(
    new URL('./fixtures/corpus/claude-code/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl', import.meta.url),
  );

  async function replayJson(
    ...flags: string[]
  ): Promise<{ cost: { dollars: number; tokens: Record<string, number> } }> {
    let out = '';
    let err = '';
    const code = await runCli(['node', 'ctxhost', 'replay', warmRecorded, '--json', ...flags], {
      out: textStream((text) => (out += text)),
      err: textStream((text) => (err += text)),
    });
    expect(code, err).toBe(0);
    return JSON.parse(out) as { cost: { dollars: number; tokens: Record<string, number> } };
  }

  it('reads the head the recording found cached (4,734 tokens on its first request) instead of writing it', async () => {
    const cold = await replayJson();
    const warm = await replayJson('--warm-start');
    const credited = cold.cost.tokens['cacheWrite5m']! - warm.cost.tokens['cacheWrite5m']!;
    // Cut at a block boundary at or before the recorded read.
    expect(credited).toBeLessThanOrEqual(4_734);
    expect(credited).toBeGreaterThan(4_734 - 50);
    expect(warm.cost.dollars).toBeLessThan(cold.cost.dollars);
  });
});

describe('ctxhost replay, bad input', () => {
  async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const code = await runCli(['node', 'ctxhost', 'replay', ...args], {
      out: textStream((text) => (out += text)),
      err: textStream((text) => (err += text)),
    });
    return { code, out, err };
  }

  it.each([
    [['missing.jsonl'], 1, /^ctxhost: .*missing\.jsonl.*\n$/],
    [[transcript, '--window', 'lots'], 2, /--window.*expected a whole number/],
    [
      [transcript, '--config', join(tmpdir(), 'no-such-ctxhost.yaml')],
      1,
      /^ctxhost: config .*no-such-ctxhost\.yaml: cannot read the file \(ENOENT\)/,
    ],
  ])('%j exits with %d and says what and where, in one line', async (args, code, message) => {
    const result = await run(...args);
    expect(result.code).toBe(code);
    expect(result.err).toMatch(message);
    expect(result.err).not.toMatch(/\n\s+at /);
  });

  it('replays a Claude Code file whose one request reports 1e9 input tokens: the figure sizes nothing', async () => {
    const at = '2026-01-01T00:00:00.000Z';
    const file = join(folder, 'reported-1e9.jsonl');
    await writeFile(
      file,
      [
        {
          type: 'user',
          uuid: 'u1',
          parentUuid: null,
          sessionId: 's',
          timestamp: at,
          message: { role: 'user', content: 'hi' },
        },
        {
          type: 'assistant',
          uuid: 'a1',
          parentUuid: 'u1',
          sessionId: 's',
          timestamp: at,
          requestId: 'r1',
          message: {
            id: 'm1',
            role: 'assistant',
            model: 'claude-sonnet-4-6',
            content: [{ type: 'text', text: 'ok' }],
            usage: { input_tokens: 1e9, output_tokens: -5 },
          },
        },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    const result = await run(file, '--window', '50000', '--json');
    expect(result.code, result.err).toBe(0);
    const replay = JSON.parse(result.out) as { reconstructed: { main: { tokens: number } } };
    expect(replay.reconstructed.main.tokens).toBeLessThanOrEqual(50_000);
  });

  it('--live without ANTHROPIC_API_KEY is a one-line error', async () => {
    const saved = process.env['ANTHROPIC_API_KEY'];
    delete process.env['ANTHROPIC_API_KEY'];
    try {
      const result = await run(transcript, '--live');
      expect(result.code).toBe(2);
      expect(result.err).toBe(
        'ctxhost: --live needs ANTHROPIC_API_KEY in the environment (the summarizer calls the real API); run without --live to stay offline [CTXHOST_CLI_USAGE]\n',
      );
    } finally {
      if (saved !== undefined) process.env['ANTHROPIC_API_KEY'] = saved;
    }
  });
});
