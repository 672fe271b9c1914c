import { fileURLToPath } from 'node:url';
import { readTranscript } from '@ctxhost/transcripts';
import { describe, expect, it } from 'vitest';
import { runReplay } from '../packages/cli/src/replay/run-replay.js';
import { runCtxhostInProcess } from './cli-run-bin.js';

const pi = fileURLToPath(new URL('./fixtures/agents/pi/session-with-compactions.jsonl', import.meta.url));

describe('a real pi session (made by running pi against the simulator)', () => {
  it('imports with its two compactions, and inspect reports them', async () => {
    const transcript = await readTranscript(pi);
    expect(transcript.format).toBe('pi');
    expect(transcript.boundaries?.map((boundary) => boundary.trigger)).toEqual(['auto', 'auto']);
    const { code, stdout } = await runCtxhostInProcess(['inspect', pi, '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as {
      format: string;
      boundaries: unknown[];
      usage: { requests: number; byModel: { model: string }[] };
    };
    expect(report.format).toBe('pi');
    expect(report.boundaries).toHaveLength(2);
    expect(report.usage.requests).toBe(transcript.usage!.length);
    expect(report.usage.byModel.map((cost) => cost.model)).toEqual(['claude-sonnet-4-5']);
  });

  it('replays segment by segment, every recorded turn answered', async () => {
    const transcript = await readTranscript(pi);
    const result = await runReplay({
      messages: transcript.messages,
      usage: transcript.usage!,
      boundaries: transcript.boundaries!.map((boundary) => boundary.messageIndex),
      window: 200_000,
      config: {},
      // The session ran on claude-sonnet-4-5, which the SDK now warns about on every call; replay it as its successor.
      model: 'claude-sonnet-4-6',
    });
    expect(result.segments).toBe(3);
    expect(result.answeredTurns).toBe(result.recordedTurns);
    expect(result.reconstructed.main?.tokens).toBeGreaterThan(0);
  });
});
