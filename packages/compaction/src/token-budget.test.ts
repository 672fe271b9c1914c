import type { SummaryRequest } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { applyCompaction } from './apply-compaction.js';
import type { CompactionStrategy } from './compaction-strategy.js';
import { ids, toolTurns } from './conversation.test-helper.js';
import { pipeline } from './pipeline.js';
import { selectiveToolCall } from './selective-tool-call.js';
import { slidingWindow } from './sliding-window.js';
import { summarization } from './summarization.js';
import { tokenBudget } from './token-budget.js';
import { toolResultCompaction } from './tool-result-compaction.js';
import { triggers } from './triggers.js';
import { truncation } from './truncation.js';
import { validateProjection } from './validate-projection.js';

const messages = toolTurns(8, 60);
const summarize = async (request: SummaryRequest) =>
  `${request.messages.length} earlier messages about weather and docs`;

describe('pipeline', () => {
  it('runs children in order, each on the result of the one before, each by its own trigger', async () => {
    const result = await applyCompaction(
      messages,
      pipeline(
        toolResultCompaction({ trigger: triggers.tokensExceed(500) }),
        summarization({ summarizer: summarize, trigger: triggers.never }),
        slidingWindow({ keepLastTurns: 3 }),
        truncation({ trigger: triggers.tokensExceed(1_000_000) }),
      ),
    );
    expect(result.report.steps).toEqual(['toolResultCompaction', 'slidingWindow']);
    expect(
      result.messages.filter(
        (message) =>
          message.role === 'user' && message.meta?.summary === undefined && message.parts[0]?.type === 'text',
      ),
    ).toHaveLength(3);
    expect(validateProjection(result.messages)).toEqual([]);
  });

  it('accepts an array and reports no change when nothing fires', async () => {
    const result = await applyCompaction(messages, pipeline([truncation({ trigger: triggers.never })]));
    expect(result.changed).toBe(false);
    expect(ids(result.messages)).toEqual(ids(messages));
  });
});

describe('tokenBudget', () => {
  const cheap = [toolResultCompaction(), selectiveToolCall(), slidingWindow({ keepLastGroups: 20 })];
  const totalTokens = async () =>
    (await applyCompaction(messages, truncation({ trigger: triggers.never }))).report.tokensBefore;

  it('does nothing within the budget', async () => {
    const result = await applyCompaction(messages, tokenBudget({ budget: await totalTokens(), strategies: cheap }));
    expect(result.changed).toBe(false);
  });

  it('stops after the first strategy that reaches the budget (earlyStop)', async () => {
    const before = await totalTokens();
    const result = await applyCompaction(
      messages,
      tokenBudget({ budget: Math.floor(before * 0.6), strategies: cheap }),
    );
    expect(result.report.steps).toEqual(['toolResultCompaction']);
    expect(result.report.tokensAfter).toBeLessThanOrEqual(Math.floor(before * 0.6));
  });

  it('runs every strategy without earlyStop', async () => {
    const before = await totalTokens();
    const result = await applyCompaction(
      messages,
      tokenBudget({
        budget: Math.floor(before * 0.6),
        strategies: [toolResultCompaction(), slidingWindow({ keepLastTurns: 2 })],
        earlyStop: false,
      }),
    );
    expect(result.report.steps).toEqual(['toolResultCompaction', 'slidingWindow']);
  });

  it('falls back to excluding the oldest groups when the strategies miss the budget', async () => {
    const result = await applyCompaction(messages, tokenBudget({ budget: 200, strategies: [toolResultCompaction()] }));
    expect(result.report.steps).toEqual(['toolResultCompaction', 'tokenBudget:fallback']);
    expect(result.report.tokensAfter).toBeLessThanOrEqual(200);
    expect(result.messages[0]!.role).toBe('system');
    expect(validateProjection(result.messages)).toEqual([]);
  });

  it('never drops a fresh summary in the fallback while its originals stay excluded', async () => {
    const strategies: CompactionStrategy[] = [
      summarization({ summarizer: summarize, trigger: triggers.always, minimumPreserved: 6 }),
    ];
    const result = await applyCompaction(messages, tokenBudget({ budget: 150, strategies }));
    expect(result.summaries).toHaveLength(1);
    expect(result.messages).toContain(result.summaries[0]);
    expect(result.report.steps).toEqual(['summarization', 'tokenBudget:fallback']);
    expect(validateProjection(result.messages)).toEqual([]);
  });

  it('says so when even the fallback cannot reach the budget', async () => {
    const result = await applyCompaction(messages, tokenBudget({ budget: 1, strategies: [] }));
    expect(result.messages.filter((message) => message.role !== 'system').length).toBeGreaterThan(0);
    expect(result.report.notes?.[0]).toMatch(/over the budget of 1/);
  });
});
