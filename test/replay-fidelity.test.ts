import { fileURLToPath } from 'node:url';
import { promptTokens } from '@ctxhost/core';
import { parseTranscript, readTranscript } from '@ctxhost/transcripts';
import { describe, expect, it } from 'vitest';
import { buildInspectReport } from '../packages/cli/src/inspect-report.js';
import { runReplay } from '../packages/cli/src/replay/run-replay.js';

const compacted = fileURLToPath(new URL('./fixtures/claude-code-compaction/compacted-session.jsonl', import.meta.url));
const BIG = 1_000_000;

describe('replay of a Claude Code session as it ran (its own compaction, UI-only lines, unlogged prefix)', () => {
  it('replays each segment from the summary, leaves out /exit, and lands within 10% of the recorded peak and price', async () => {
    const transcript = await readTranscript(compacted, { includeSidechains: false });
    const recorded = buildInspectReport(transcript).usage!;
    const result = await runReplay({
      messages: transcript.messages,
      usage: transcript.usage!,
      boundaries: transcript.boundaries!.map((boundary) => boundary.messageIndex),
      window: BIG,
      config: {},
    });
    expect(result.segments).toBe(2);
    expect(result.uiOnlyMessages).toBe(2);
    // One call per recorded request: the /exit line and its output were not sent as a turn.
    expect(result.points).toHaveLength(recorded.requests);
    expect(new Set(result.points.map((point) => point.sessionId))).toEqual(new Set(['replay', 'replay/segment-2']));
    // After the boundary the prompt starts again from the prefix and the summary, as the recorded ones do.
    const firstAfter = result.points.find((point) => point.sessionId === 'replay/segment-2')!;
    const recordedAfter = promptTokens(
      transcript.usage!.find((entry) => entry.messageIndex >= transcript.boundaries![0]!.messageIndex)!.usage,
    );
    expect(Math.abs(firstAfter.contextTokens / recordedAfter - 1)).toBeLessThan(0.1);
    expect(result.reconstructed.main?.tokens).toBeGreaterThan(10_000);
    expect(Math.abs(result.peak / recorded.peakPromptTokens - 1)).toBeLessThan(0.1);
    expect(Math.abs(result.cost.withoutCaching / recorded.withoutCaching - 1)).toBeLessThan(0.1);
  });
});

function line(value: Record<string, unknown>): string {
  return JSON.stringify({ sessionId: 's1', timestamp: '2025-01-01T00:00:00Z', isSidechain: false, ...value });
}
const usage = (input: number) => ({
  input_tokens: input,
  output_tokens: 50,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
});
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const mixed = parseTranscript(
  [
    line({
      type: 'user',
      uuid: 'u1',
      parentUuid: null,
      message: {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL } },
          { type: 'text', text: 'what is in this screenshot?' },
        ],
      },
    }),
    line({
      type: 'assistant',
      uuid: 'a1',
      parentUuid: 'u1',
      message: {
        id: 'm1',
        role: 'assistant',
        model: 'claude-opus-4-1-20250805',
        content: [{ type: 'text', text: 'A single pixel.' }],
        usage: usage(1700),
      },
    }),
    line({ type: 'user', uuid: 'u2', parentUuid: 'a1', message: { role: 'user', content: 'and now in words?' } }),
    line({
      type: 'assistant',
      uuid: 'a2',
      parentUuid: 'u2',
      message: {
        id: 'm2',
        role: 'assistant',
        model: 'claude-sonnet-4-20250514',
        content: [{ type: 'text', text: 'One dot.' }],
        usage: usage(1720),
      },
    }),
  ].join('\n'),
);

describe('replay prices each call as the model that answered it', () => {
  it('gives a mixed-model session the models inspect gives it, and counts the pasted image', async () => {
    const result = await runReplay({
      messages: mixed.messages,
      usage: mixed.usage!,
      window: BIG,
      config: {},
      reconstructPrefix: false,
    });
    const inspected = buildInspectReport(mixed).usage!.byModel.map((cost) => [cost.model, cost.requests]);
    expect(result.cost.byModel.map((cost) => [cost.model, cost.requests])).toEqual(inspected);
    expect(inspected).toEqual([
      ['claude-opus-4-1-20250805', 1],
      ['claude-sonnet-4-20250514', 1],
    ]);
    expect(result.points.map((point) => point.model)).toEqual(['claude-opus-4-1-20250805', 'claude-sonnet-4-20250514']);
    // The simulator counts an image as 1,500 tokens: the pasted screenshot was sent.
    expect(result.points[0]!.contextTokens).toBeGreaterThan(1_500);
  });

  it('prices every call as the override when a model is given', async () => {
    const result = await runReplay({ messages: mixed.messages, window: BIG, config: {}, model: 'claude-haiku-4-5' });
    expect(result.model).toBe('claude-haiku-4-5');
    expect(result.modelOverride).toBe(true);
    expect(result.cost.byModel.map((cost) => [cost.model, cost.requests])).toEqual([['claude-haiku-4-5', 2]]);
  });
});
