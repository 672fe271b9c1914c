import { fileURLToPath } from 'node:url';
import { readTranscript } from '@ctxhost/transcripts';
import { describe, expect, it } from 'vitest';
import { runCtxhostInProcess } from './cli-run-bin.js';

// A real Gemini CLI 0.61.0 session, recorded against the simulator's Gemini API (test/fixtures/gemini-cli/README.md).
const session = fileURLToPath(new URL('./fixtures/gemini-cli/session.jsonl', import.meta.url));

interface CostLine {
  model: string;
  requests: number;
  priced: boolean;
  tokens: { uncachedInput: number; cacheRead: number; output: number };
  dollars: { total: number };
}

describe('ctxhost on a Gemini CLI session', () => {
  it('inspect reads its usage per request, priced as the model each request names, and its compression', async () => {
    const transcript = await readTranscript(session);
    const { code, stdout, stderr } = await runCtxhostInProcess(['inspect', session, '--json']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const report = JSON.parse(stdout) as {
      format: string;
      boundaries: { messageIndex: number; summaryIndex?: number }[];
      usage: {
        requests: number;
        peakPromptTokens: number;
        byModel: CostLine[];
        dollars: number;
        withoutCaching: number;
      };
    };
    expect(report.format).toBe('gemini-cli');
    expect(report.boundaries).toEqual([expect.objectContaining({ messageIndex: 3, summaryIndex: 4 })]);
    expect(report.usage.requests).toBe(transcript.usage!.length);
    expect(report.usage.peakPromptTokens).toBe(14_920);
    const [line, ...others] = report.usage.byModel;
    expect(others).toEqual([]);
    expect(line).toMatchObject({ model: 'gemini-3-flash-preview', requests: 6, priced: true });
    const recorded = transcript.usage!.reduce(
      (sum, entry) => ({
        uncachedInput: sum.uncachedInput + entry.usage.inputTokens,
        cacheRead: sum.cacheRead + entry.usage.cacheReadInputTokens,
        output: sum.output + entry.usage.outputTokens,
      }),
      { uncachedInput: 0, cacheRead: 0, output: 0 },
    );
    expect(line?.tokens).toMatchObject(recorded);
    // gemini-3-flash-preview's list prices per million: $0.50 input, $0.05 cache read, $3 output.
    const expected = (recorded.uncachedInput * 0.5 + recorded.cacheRead * 0.05 + recorded.output * 3) / 1e6;
    expect(report.usage.dollars).toBeCloseTo(expected, 6);
    expect(report.usage.withoutCaching).toBeGreaterThan(report.usage.dollars);
    const text = await runCtxhostInProcess(['inspect', session]);
    expect(text.stdout).toMatch(/^format gemini-cli, 15 messages \(user 5, assistant 7, tool 3\)$/m);
    expect(text.stdout).toMatch(
      /^ {2}line 10: a compaction \(the transcript does not say what started it\), the summary is message 4$/m,
    );
  });

  it('replay runs it segment by segment against the simulator, every recorded turn answered', async () => {
    const { code, stdout, stderr } = await runCtxhostInProcess(['replay', session, '--json']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const result = JSON.parse(stdout) as {
      format: string;
      segments: number;
      recordedTurns: number;
      answeredTurns: number;
      overflows: number;
      cost: { byModel: { model: string; priced: boolean }[] };
    };
    expect(result).toMatchObject({ format: 'gemini-cli', segments: 2, overflows: 0 });
    expect(result.answeredTurns).toBe(result.recordedTurns);
    expect(result.cost.byModel).toEqual([expect.objectContaining({ model: 'gemini-3-flash-preview', priced: true })]);
    const text = await runCtxhostInProcess(['replay', session]);
    expect(text.stdout).toContain(
      `replayed ${result.answeredTurns} of ${result.recordedTurns} recorded assistant turns in 2 sessions (the main thread in 2 segments)`,
    );
  });
});
