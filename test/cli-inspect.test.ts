import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpus, runCtxhost, runCtxhostInProcess } from './cli-run-bin.js';

const session = corpus('claude-code/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl');
let folder: string;
let broken: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'ctxhost-inspect-'));
  broken = join(folder, 'broken.jsonl');
  const lines = (await readFile(corpus('claude-code/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl'), 'utf8')).split('\n');
  await writeFile(
    broken,
    [...lines.slice(0, 5), '{not json', '{"type":"assistant","message":{}}', ...lines.slice(5)].join('\n'),
  );
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('ctxhost inspect', () => {
  it('reports format, messages, groups and tokens by kind, the largest outputs, and the reported usage and its cost', async () => {
    const { code, stdout, stderr } = await runCtxhost(['inspect', session]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(
      /^format claude-code, 341 messages \(user 8, assistant 170, tool 163\), sidechains included$/m,
    );
    expect(stdout).toMatch(/^tool_call +163 +326 +261,654 +[\d,]+ +0$/m);
    expect(stdout).toMatch(/^ 1 +82 +Bash +toolu_01WoBqxuPLSBtW4V8onmnH21 +26,746 /m);
    expect(stdout).toMatch(/^Reported usage: 170 requests, peak prompt 42,726 tokens/m);
    expect(stdout).toMatch(
      /^claude-sonnet-4-20250514 +170 +818 +137,976 +3,647,854 +51,933 +\$2\.39 +\$12\.14 +96\.3%$/m,
    );
  });

  it("reads an opencode export: its steps' usage and its own compaction, naming the summary after opencode's question", async () => {
    const { code, stdout, stderr } = await runCtxhostInProcess([
      'inspect',
      fileURLToPath(new URL('fixtures/opencode-session/session.json', import.meta.url)),
    ]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(/^format opencode, 14 messages \(user 4, assistant 7, tool 3\)$/m);
    expect(stdout).toMatch(/^ {2}line 8: manual, the summary is message 11$/m);
    expect(stdout).toMatch(/^Reported usage: 7 requests, peak prompt 10,157 tokens/m);
  });

  it('prints the same report as JSON', async () => {
    const { code, stdout } = await runCtxhostInProcess(['inspect', session, '--json', '--no-sidechains']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as Record<string, unknown> & {
      groups: { kind: string; tokens: number }[];
      usage: { requests: number; byModel: { priced: boolean; model: string; dollars: { total: number } }[] };
    };
    expect(report).toMatchObject({
      file: session,
      format: 'claude-code',
      sidechains: false,
      messages: 19,
      skipped: 0,
      roles: { user: 3, assistant: 9, tool: 7, system: 0 },
    });
    expect(report.groups.map((group) => group.kind)).toEqual(['user', 'assistant_text', 'tool_call']);
    expect(report.groups.every((group) => group.tokens > 0)).toBe(true);
    expect(report['largestToolOutputs']).toHaveLength(10);
    expect(report.usage.requests).toBe(9);
    expect(report.usage.byModel).toEqual([
      expect.objectContaining({ priced: true, model: 'claude-sonnet-4-20250514' }),
    ]);
    expect(report.usage.byModel[0]!.dollars.total).toBeGreaterThan(0);
  });

  it("prices the requests with the config's models: overrides, as replay does", async () => {
    const config = join(folder, 'prices.yaml');
    await writeFile(
      config,
      'models:\n  claude-sonnet-4-20250514:\n    pricing: { input: 30, output: 150, cache_read: 3, cache_write: 37.5 }\n',
    );
    const run = async (extra: string[]) =>
      JSON.parse((await runCtxhostInProcess(['inspect', session, '--json', '--no-sidechains', ...extra])).stdout) as {
        usage: { dollars: number };
      };
    const standard = (await run([])).usage.dollars;
    const overridden = (await run(['--config', config])).usage.dollars;
    expect(overridden / standard).toBeCloseTo(10, 5);
  });

  it('reads OpenHands runs and SWE-agent trajectories, which carry no usage', async () => {
    const openhands = await runCtxhostInProcess([
      'inspect',
      corpus('openhands/multi-swe-bench-output.jsonl'),
      '--run',
      '2',
    ]);
    expect(openhands.stdout).toMatch(/^format openhands, 101 messages \(.*\), run 2 of 3$/m);
    expect(openhands.stdout).toMatch(/^No API-reported usage in this transcript\.$/m);
    const swe = await runCtxhostInProcess(['inspect', corpus('swe-agent/pydicom__pydicom-1458.traj'), '--json']);
    expect(JSON.parse(swe.stdout)).toMatchObject({ format: 'swe-agent', usage: null });
  });

  it('skips and counts broken lines, and fails on the first one with --strict', async () => {
    const skipping = await runCtxhostInProcess(['inspect', broken]);
    expect(skipping.code).toBe(0);
    expect(skipping.stdout).toMatch(/^2 broken lines skipped \(--strict fails instead\)$/m);
    const strict = await runCtxhostInProcess(['inspect', broken, '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toBe('');
    expect(strict.stderr).toBe(
      `ctxhost: transcript ${broken}:6: not valid JSON (Expected property name or '}' in JSON at position 1); fix the line or run without --strict to skip it [CTXHOST_TRANSCRIPT_INVALID]\n`,
    );
  });
});

describe('ctxhost inspect with out-of-range token counts', () => {
  const codex = fileURLToPath(
    new URL('fixtures/codex/rollout-2026-11-23T19-31-28-01a209e4-53a4-75d2-94d1-4a37d2834be0.jsonl', import.meta.url),
  );
  const claudeCode = corpus('claude-code/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl');
  // 1e400 is read by JSON.parse as Infinity: a Codex file reporting it failed inspect for the whole file, naming neither.
  it.each(['1e400', '-1e400', '-5', '1.5', '-0', '"12"', 'null', '{"a":1}', '99999999999999999999999999'])(
    'reads a count of %s as a bounded whole number in Codex and Claude Code files',
    async (value) => {
      for (const [name, file] of [
        ['codex', codex],
        ['claude-code', claudeCode],
      ] as const) {
        const odd = join(folder, `odd-${name}.jsonl`);
        await writeFile(odd, (await readFile(file, 'utf8')).replace(/"input_tokens":\d+/g, `"input_tokens":${value}`));
        const { code, stderr } = await runCtxhostInProcess(['inspect', odd]);
        expect({ name, code, stderr }).toStrictEqual({ name, code: 0, stderr: '' });
      }
    },
  );
});
