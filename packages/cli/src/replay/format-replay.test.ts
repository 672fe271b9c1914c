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
    expect(text).toMatch(/cost \$0\.09 with caching, \$0\.14 without \(caching saved \$0\.05; prices for claude-sonnet-4-6\)/);
  });
});

describe('formatReplaySummary with several overflows in one incident', () => {
  it('says how many incidents they were', () => {
    const text = formatReplaySummary(sampleReplayResult({ overflows: 2, incidents: 1 }), plain).join('\n');
    expect(text).toContain('overflows 2 in 1 incident, recovered 1');
  });
});
