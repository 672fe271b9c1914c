import { fileURLToPath } from 'node:url';
import { readTranscript } from '@ctxhost/transcripts';
import { describe, expect, it } from 'vitest';
import { runReplay } from '../packages/cli/src/replay/run-replay.js';
import { runCtxhostInProcess } from './cli-run-bin.js';

const rollout = fileURLToPath(
  new URL('./fixtures/codex/rollout-2026-11-23T19-31-28-01a209e4-53a4-75d2-94d1-4a37d2834be0.jsonl', import.meta.url),
);

describe('a real Codex CLI rollout (codex-cli 0.169.0 against the simulator)', () => {
  it('inspect reports its usage, its model and the cost at that model’s prices, and its compaction', async () => {
    const { code, stdout, stderr } = await runCtxhostInProcess(['inspect', rollout]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(/^format codex, 23 messages \(system 2, user 6, assistant 10, tool 5\)$/m);
    expect(stdout).toMatch(
      /^ {2}line 69: a compaction \(the transcript does not say what started it\), the summary is message 24$/m,
    );
    expect(stdout).toMatch(/^Reported usage: 10 requests, peak prompt 11,141 tokens, last 10,818, output 263$/m);
    // gpt-5.5 at $5 / $0.50 cached / $30 per million: 30,653 × 5 + 75,136 × 0.5 + 263 × 30 = $0.1987.
    expect(stdout).toMatch(/^gpt-5\.5 +10 +30,653 +0 +75,136 +263 +\$0\.1987 +\$0\.5368 +71\.0%$/m);
  });

  it('inspect --json gives the same figures', async () => {
    const { code, stdout } = await runCtxhostInProcess(['inspect', rollout, '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as {
      format: string;
      boundaries: unknown[];
      usage: { requests: number; byModel: { model: string; priced: boolean }[] };
    };
    expect(report.format).toBe('codex');
    expect(report.boundaries).toHaveLength(1);
    expect(report.usage.requests).toBe(10);
    expect(report.usage.byModel).toMatchObject([{ model: 'gpt-5.5', priced: true }]);
  });

  it('replays segment by segment, every recorded turn answered', async () => {
    const transcript = await readTranscript(rollout);
    const result = await runReplay({
      messages: transcript.messages,
      usage: transcript.usage!,
      boundaries: transcript.boundaries!.map((boundary) => boundary.messageIndex),
      window: 200_000,
      config: {},
      // Replay drives the Anthropic SDK against the simulator; the recorded turns are played back as that model.
      model: 'claude-sonnet-4-6',
    });
    expect(result.segments).toBe(2);
    expect(result.answeredTurns).toBe(result.recordedTurns);
    expect(result.recordedTurns).toBeGreaterThan(0);
  });
});
