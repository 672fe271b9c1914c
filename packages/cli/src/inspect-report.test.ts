import { fileURLToPath } from 'node:url';
import type { Message, Usage } from '@ctxhost/core';
import { readTranscript, type Transcript } from '@ctxhost/transcripts';
import { describe, expect, it } from 'vitest';
import { buildInspectReport } from './inspect-report.js';

const usage = (inputTokens: number, cacheReadInputTokens: number, outputTokens: number): Usage => ({
  inputTokens,
  cacheCreationInputTokens: 0,
  cacheReadInputTokens,
  outputTokens,
});
const reply = (id: string, model: string): Message => ({
  id,
  role: 'assistant',
  parts: [{ id: `${id}.0`, type: 'text', text: 'done' }],
  meta: { model },
});

function transcript(): Transcript {
  const messages: Message[] = [
    { id: 'u', role: 'user', parts: [{ id: 'u.0', type: 'text', text: 'hello' }] },
    reply('a1', 'claude-sonnet-4-20250514'),
    reply('a2', 'mystery-model'),
    reply('a3', 'claude-sonnet-4-20250514'),
  ];
  return {
    format: 'claude-code',
    messages,
    usage: [
      { usage: usage(1_000, 0, 10), messageIndex: 0, replyIndex: 1 },
      { usage: usage(500, 2_000, 20), messageIndex: 1, replyIndex: 2 },
      { usage: usage(100, 900, 30), messageIndex: 2, replyIndex: 3 },
    ],
    meta: {},
    skipped: 0,
  };
}

describe('buildInspectReport', () => {
  it('counts roles and sums the reported usage: peak and last prompt, output', () => {
    const report = buildInspectReport(transcript());
    expect(report.roles).toEqual({ system: 0, user: 1, assistant: 3, tool: 0 });
    expect(report.usage).toMatchObject({
      requests: 3,
      peakPromptTokens: 2_500,
      lastPromptTokens: 1_000,
      outputTokens: 60,
    });
  });

  it('prices each model on its own and names a model it has no price for, leaving it out of the totals', () => {
    const usage = buildInspectReport(transcript()).usage!;
    const sonnet = usage.byModel.find((cost) => cost.model === 'claude-sonnet-4-20250514');
    expect(sonnet).toMatchObject({ priced: true, requests: 2 });
    const sonnetDollars = (1_100 * 3 + 900 * 0.3 + 40 * 15) / 1_000_000;
    expect(usage.dollars).toBeCloseTo(sonnetDollars, 10);
    expect(usage.withoutCaching).toBeCloseTo((2_000 * 3 + 40 * 15) / 1_000_000, 10);
    const mystery = usage.byModel.find((cost) => cost.model === 'mystery-model');
    expect(mystery).toMatchObject({ priced: false, requests: 1, reason: expect.stringContaining('mystery-model') });
  });

  it('has no usage section for a transcript without reported usage', () => {
    expect(buildInspectReport({ ...transcript(), usage: undefined }).usage).toBeNull();
  });
});

describe('buildInspectReport pricing (one source: the model registry)', () => {
  it('prices an Opus request at Opus prices and honours a --model override', () => {
    const opus = {
      ...transcript(),
      messages: transcript().messages.map((message) =>
        message.role === 'assistant'
          ? { ...message, meta: { ...message.meta, model: 'claude-opus-4-1-20250805' } }
          : message,
      ),
    };
    const usage = buildInspectReport(opus).usage!;
    expect(usage.byModel.map((cost) => [cost.model, cost.requests])).toEqual([['claude-opus-4-1-20250805', 3]]);
    expect(usage.withoutCaching).toBeCloseTo((4_500 * 15 + 60 * 75) / 1_000_000, 10);
    const asHaiku = buildInspectReport(opus, { model: 'claude-haiku-4-5' }).usage!;
    expect(asHaiku.byModel.map((cost) => cost.model)).toEqual(['claude-haiku-4-5']);
    expect(asHaiku.withoutCaching).toBeCloseTo((4_500 * 1 + 60 * 5) / 1_000_000, 10);
  });
});

describe('buildInspectReport on a pi session that compacted itself', () => {
  it('counts the messages pi kept and sent again after its compactions once: no false orphans, no output twice', async () => {
    const pi = await readTranscript(
      fileURLToPath(new URL('../../../test/fixtures/agents/pi/session-with-compactions.jsonl', import.meta.url)),
    );
    expect(pi.messages).toHaveLength(24);
    const report = buildInspectReport(pi);
    expect(report.repeatedAfterCompaction).toBe(14);
    expect(report.messages).toBe(10);
    expect(report.total.orphans).toBe(0);
    expect(report.largestToolOutputs.map((row) => [row.callId, row.messageIndex])).toEqual([
      ['toolu_pi_1', 2],
      ['toolu_pi_2', 4],
    ]);
  });
});
