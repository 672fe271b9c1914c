import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { sampleReplayResult } from '../report/sample-replay-result.test-helper.js';
import { formatReplayEvent, formatReplaySummary } from './format-replay.js';

const plain = pc.createColors(false);

describe('formatReplayEvent', () => {
  it('says where each event happened and what it was', () => {
    const lines = sampleReplayResult().events.map((event) => formatReplayEvent(event, plain));
    expect(lines).toEqual([
      '  call   3  main  compaction (threshold, compressor): 11,500 → 6,500 tokens, 30 → 12 messages, summary: model',
      '  call   5  sub<1>  overflow: prompt is too long: 10500 tokens > 10000 maximum',
      '  call   6  sub<1>  recovered: Recovered after truncation; the session answered again. (it first answered again at call 6)',
      '  call   3  main  toast [warning] Context window filling up: 81% in use',
    ]);
  });

  it('colours only when asked', () => {
    const event = sampleReplayResult().events[1]!;
    expect(formatReplayEvent(event, pc.createColors(true))).toContain('\u001b[31moverflow');
  });
});

describe('formatReplaySummary', () => {
  it('gives the peak, compactions, overflows, tokens and dollars with and without caching', () => {
    const text = formatReplaySummary(sampleReplayResult(), plain).join('\n');
    expect(text).toContain('replayed 7 of 7 recorded assistant turns in 2 sessions (the main thread and 1 subagent)');
    expect(text).toContain('peak context 11,000 tokens (92% of the 12,000-token window, API limit 10,000)');
    expect(text).toContain('overflows 1, recovered 1');
    expect(text).toContain('tokens 46,500 prompt (55% read from cache), 700 output, over 7 model calls');
    expect(text).toMatch(
      /cost \$0\.09 with caching, \$0\.14 without \(caching saved \$0\.05; each call priced as its recorded turn's model: none\)/,
    );
  });

  it('names the model override, the unpriced models, the reconstructed prefix, the segments and the UI-only lines', () => {
    const unpriced = {
      priced: false as const,
      model: 'gpt-x',
      requests: 2,
      reason: 'no price for gpt-x',
      tokens: sampleReplayResult().cost.tokens,
    };
    const text = formatReplaySummary(
      sampleReplayResult({
        modelOverride: true,
        model: 'claude-opus-4-1',
        segments: 2,
        uiOnlyMessages: 3,
        reconstructed: {
          main: { tokens: 14_000, recordedPrompt: 16_000, loggedTokens: 2_000, headTokens: 14_500, warmTokens: 0 },
        },
        cost: { ...sampleReplayResult().cost, byModel: [unpriced] },
      }),
      plain,
    ).join('\n');
    expect(text).toContain('every call priced as claude-opus-4-1');
    expect(text).toContain('gpt-x: 2 calls not priced (no price for gpt-x)');
    expect(text).toContain(
      'main thread: system prompt and tools not in the transcript, reconstructed as 14,000 tokens (its first request reported 16,000, its logged messages and tool definitions count 2,000)',
    );
    expect(text).toContain('the agent compacted its own conversation 1 time: the main thread replayed as 2 segments');
    expect(text).toContain('in 2 sessions (the main thread in 2 segments)');
    expect(text).toContain('3 UI-only lines left out');
  });
});

describe('formatReplaySummary with several overflows in one incident', () => {
  it('says how many incidents they were', () => {
    const text = formatReplaySummary(sampleReplayResult({ overflows: 2, incidents: 1 }), plain).join('\n');
    expect(text).toContain('overflows 2 in 1 incident, recovered 1');
  });
});

describe('formatReplaySummary where model calls and recorded turns part', () => {
  it('names every call without a recorded turn, and every recorded message no call replays, with the reason', () => {
    const text = formatReplaySummary(
      sampleReplayResult({
        unansweredUserTurns: { sentWithNext: 2, leftOut: 1 },
        turnsEndedAfterTools: 3,
        unrecordedCalls: 1,
      }),
      plain,
    ).join('\n');
    expect(text).toContain(
      '2 user messages with no recorded answer (interrupted) sent with the next one, as the agent sent them',
    );
    expect(text).toContain('1 user message at the end with no recorded answer left out: no call replays them');
    expect(text).toContain(
      '3 tool calls with no recorded turn after its result (stopped by the user, or the transcript ends there): the turn ended there, the model was not asked',
    );
    expect(text).toContain(
      "1 model call ended on a message the transcript records no turn after: answered by the simulator's stand-in reply and priced",
    );
  });

  it('says nothing of them when every call has its recorded turn', () => {
    const text = formatReplaySummary(sampleReplayResult(), plain).join('\n');
    expect(text).not.toMatch(/no recorded (answer|turn)/);
  });
});
