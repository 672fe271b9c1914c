import type { CompactionReport } from '@ctxhost/core';
import type { ReplayEvent, ReplayPoint } from '../replay/replay-recorder.js';
import type { ReplayResult } from '../replay/run-replay.js';

const compaction = (tokensBefore: number, tokensAfter: number): CompactionReport => ({
  engine: 'compressor',
  reason: 'threshold',
  tokensBefore,
  tokensAfter,
  messagesBefore: 30,
  messagesAfter: 12,
  summary: { tokens: 400, source: 'model', messagesCovered: 18 },
  fidelity: {
    score: 1,
    candidateScore: 0.75,
    probes: 8,
    byKind: { file: { probes: 6, found: 5, kept: 6 }, constraint: { probes: 2, found: 1, kept: 2 } },
    missed: [
      { kind: 'constraint', text: 'never touch <main>' },
      { kind: 'file', text: 'src/a.ts' },
    ],
    added: 2,
  },
  ledger: { entries: 4, folded: 0, tokens: 120 },
});

/** A small replay result for the report's unit tests: two sessions, a compaction, an overflow and its recovery. */
export function sampleReplayResult(overrides: Partial<ReplayResult> = {}): ReplayResult {
  const contexts: [string, number][] = [
    ['main', 2_000],
    ['main', 6_000],
    ['main', 11_000],
    ['main', 7_000],
    ['sub<1>', 3_000],
    ['sub<1>', 9_500],
    ['main', 8_000],
  ];
  let dollars = 0;
  let without = 0;
  const points: ReplayPoint[] = contexts.map(([sessionId, contextTokens], index) => {
    dollars += contextTokens * 0.000002;
    without += contextTokens * 0.000003;
    return {
      call: index + 1,
      sessionId,
      model: 'claude-sonnet-4-6',
      contextTokens,
      dollars,
      dollarsWithoutCaching: without,
    };
  });
  const events: ReplayEvent[] = [
    { kind: 'compaction', call: 3, sessionId: 'main', report: compaction(11_500, 6_500) },
    {
      kind: 'overflow',
      call: 5,
      sessionId: 'sub<1>',
      errorKind: 'context_overflow',
      message: 'prompt is too long: 10500 tokens > 10000 maximum',
    },
    {
      kind: 'recovery',
      call: 6,
      sessionId: 'sub<1>',
      text: 'Recovered after truncation; the session answered again.',
      answeredAt: 6,
    },
    {
      kind: 'toast',
      call: 3,
      sessionId: 'main',
      level: 'warning',
      title: 'Context window filling up',
      text: '81% in use',
      source: 'context-window-monitor',
    },
  ];
  return {
    window: 12_000,
    contextLimit: 10_000,
    model: 'claude-sonnet-4-6',
    modelOverride: false,
    engine: 'compressor',
    segments: 1,
    uiOnlyMessages: 0,
    reconstructed: {},
    summarizer: 'anthropic:claude-sonnet-4-6',
    thresholds: { warnAt: 0.7, criticalAt: 0.8, engineAt: 0.5 },
    points,
    events,
    peak: 11_000,
    compactions: 1,
    compactionsNotDone: 0,
    overflows: 1,
    incidents: 1,
    recoveries: 1,
    failedRecoveries: 0,
    sessions: 2,
    recordedTurns: 7,
    answeredTurns: 7,
    repeatedTurns: 0,
    unrecordedCalls: 0,
    unansweredUserTurns: { sentWithNext: 0, leftOut: 0 },
    turnsEndedAfterTools: 0,
    cost: {
      requests: 7,
      tokens: {
        uncachedInput: 1_000,
        cacheWrite5m: 20_000,
        cacheWrite1h: 0,
        cacheRead: 25_500,
        output: 700,
        prompt: 46_500,
      },
      dollars,
      withoutCaching: without,
      dollarsSaved: without - dollars,
      cacheHitRatio: 25_500 / 46_500,
      byModel: [],
    },
    ...overrides,
  };
}
