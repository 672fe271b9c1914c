import { createTokenCounter } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { applyCompaction, dryRun } from './apply-compaction.js';
import { createConversation, toolTurns } from './conversation.test-helper.js';
import { slidingWindow } from './sliding-window.js';
import { tokenBudget } from './token-budget.js';
import { toolResultCompaction } from './tool-result-compaction.js';
import { truncation } from './truncation.js';
import { triggers } from './triggers.js';

describe('applyCompaction', () => {
  it('reports tokens and messages before and after, and never mutates the input', async () => {
    const messages = toolTurns(4);
    const frozen = structuredClone(messages);
    const result = await applyCompaction(messages, slidingWindow({ keepLastTurns: 1 }), { reason: 'manual' });
    expect(messages).toEqual(frozen);
    expect(result.report).toMatchObject({
      engine: 'slidingWindow',
      reason: 'manual',
      messagesBefore: 17,
      messagesAfter: 5,
      steps: ['slidingWindow'],
    });
    expect(result.report.tokensAfter).toBeLessThan(result.report.tokensBefore);
    expect(result.excludedGroups).toBe(9);
    expect(result.excludedMessageIds).toHaveLength(12);
  });

  it('dryRun reports the same plan and savings as the real run for strategies without a model', async () => {
    const messages = toolTurns(6);
    const strategy = tokenBudget({
      budget: 400,
      strategies: [toolResultCompaction(), slidingWindow({ keepLastTurns: 3 })],
    });
    const planned = await dryRun(messages, strategy);
    const applied = await applyCompaction(messages, strategy);
    expect(planned.tokensSaved).toBe(applied.report.tokensBefore - applied.report.tokensAfter);
    expect(planned.messages).toEqual(applied.messages);
  });

  it('counts only new messages on the next run when given the same counter', async () => {
    const counter = createTokenCounter();
    const messages = toolTurns(50);
    const strategy = truncation({ trigger: triggers.tokensExceed(2_000), minimumPreserved: 4 });
    await applyCompaction(messages, strategy, { counter });
    const misses = counter.stats.misses;
    const c = createConversation();
    await applyCompaction(
      [...messages, { ...c.user('new'), id: 'new-1' }, { ...c.assistant('reply'), id: 'new-2' }],
      strategy,
      { counter },
    );
    expect(counter.stats.misses - misses).toBe(2);
  });
});
