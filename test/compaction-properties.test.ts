import {
  applyCompaction,
  pipeline,
  selectiveToolCall,
  slidingWindow,
  summarization,
  tokenBudget,
  toolResultCompaction,
  triggers,
  truncation,
  type CompactionStrategy,
} from '@ctxhost/compaction';
import { groupMessages, type SummaryRequest } from '@ctxhost/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildConversation, conversationShapeArbitrary, deepFreeze } from './support/arbitrary-conversation.js';
import { projectionProblems } from './support/projection-invariants.js';
import { testSize } from './support/test-size.js';

// Thinking as its own message before some calls: a strategy keeps it with its call (one group).
const conversationArbitrary = conversationShapeArbitrary({ thinkingMessages: true });

const summarize = async (request: SummaryRequest) => `summary of ${request.messages.length} messages`;
const preserve = fc.record({
  minimumPreserved: fc.integer({ min: 0, max: 6 }),
  pinFirstUserMessage: fc.boolean(),
  pinSummaries: fc.boolean(),
});
/** A strategy with a readable description, so a counterexample says which one failed. */
interface Described {
  strategy: CompactionStrategy;
  description: string;
  toString(): string;
}
const described = (description: string, strategy: CompactionStrategy): Described => ({
  strategy,
  description,
  toString: () => description,
});
const strategyArbitrary: fc.Arbitrary<Described> = fc.letrec<{ strategy: Described }>((tie) => ({
  strategy: fc.oneof(
    { depthSize: 'small' },
    fc
      .tuple(fc.integer({ min: 0, max: 3000 }), preserve)
      .map(([limit, options]) =>
        described(
          `truncation(${limit}, ${JSON.stringify(options)})`,
          truncation({ trigger: triggers.tokensExceed(limit), ...options }),
        ),
      ),
    fc
      .tuple(fc.integer({ min: 0, max: 6 }), preserve)
      .map(([turns, options]) =>
        described(
          `slidingWindow(turns ${turns}, ${JSON.stringify(options)})`,
          slidingWindow({ keepLastTurns: turns, ...options }),
        ),
      ),
    fc
      .tuple(fc.integer({ min: 0, max: 12 }), preserve)
      .map(([groups, options]) =>
        described(
          `slidingWindow(groups ${groups}, ${JSON.stringify(options)})`,
          slidingWindow({ keepLastGroups: groups, ...options }),
        ),
      ),
    fc
      .tuple(fc.integer({ min: 0, max: 3 }), preserve)
      .map(([keep, options]) =>
        described(
          `toolResultCompaction(${keep}, ${JSON.stringify(options)})`,
          toolResultCompaction({ keepLastToolCallGroups: keep, ...options }),
        ),
      ),
    fc
      .tuple(fc.integer({ min: 0, max: 3 }), preserve)
      .map(([keep, options]) =>
        described(
          `selectiveToolCall(${keep}, ${JSON.stringify(options)})`,
          selectiveToolCall({ keepLastToolCallGroups: keep, ...options }),
        ),
      ),
    fc
      .tuple(fc.integer({ min: 0, max: 3000 }), preserve)
      .map(([limit, options]) =>
        described(
          `summarization(${limit}, ${JSON.stringify(options)})`,
          summarization({ summarizer: summarize, trigger: triggers.tokensExceed(limit), ...options }),
        ),
      ),
    fc
      .array(tie('strategy'), { maxLength: 3 })
      .map((children) =>
        described(`pipeline(${children.join(', ')})`, pipeline(children.map((child) => child.strategy))),
      ),
    fc
      .tuple(fc.integer({ min: 0, max: 3000 }), fc.array(tie('strategy'), { maxLength: 3 }), fc.boolean(), preserve)
      .map(([budget, children, earlyStop, options]) =>
        described(
          `tokenBudget(${budget}, [${children.join(', ')}], ${earlyStop}, ${JSON.stringify(options)})`,
          tokenBudget({ budget, strategies: children.map((child) => child.strategy), earlyStop, ...options }),
        ),
      ),
  ),
})).strategy;

describe('compaction properties over random conversations', () => {
  it('never splits a group, keeps system messages, projects a sub-sequence plus summaries, and stays valid for the API', async () => {
    await fc.assert(
      fc.asyncProperty(conversationArbitrary, strategyArbitrary, async (shape, { strategy }) => {
        const messages = deepFreeze(buildConversation(shape));
        const before = structuredClone(messages);
        const result = await applyCompaction(messages, strategy);
        expect(messages).toEqual(before);
        expect(projectionProblems(messages, result.messages).join('\n')).toBe('');
        const originalIds = new Set(messages.map((message) => message.id));
        const groupedOrder = groupMessages(messages).flatMap((group) => group.messages.map((message) => message.id));
        const originalsInProjection = result.messages
          .filter((message) => originalIds.has(message.id))
          .map((message) => message.id);
        expect(isSubsequence(originalsInProjection, groupedOrder)).toBe(true);
        for (const message of result.messages)
          if (!originalIds.has(message.id)) expect(message.meta?.summary).toBeDefined();
        expect(result.messages.length).toBe(result.report.messagesAfter);
      }),
      { numRuns: testSize(250), seed: 1301 },
    );
  });

  it('without approvals in between, the projection is a sub-sequence of the original list itself', async () => {
    await fc.assert(
      fc.asyncProperty(
        conversationShapeArbitrary({ approvals: false }),
        strategyArbitrary,
        async (shape, { strategy }) => {
          const messages = buildConversation(shape);
          const result = await applyCompaction(messages, strategy);
          const originalIds = new Set(messages.map((message) => message.id));
          const kept = result.messages.filter((message) => originalIds.has(message.id)).map((message) => message.id);
          expect(
            isSubsequence(
              kept,
              messages.map((message) => message.id),
            ),
          ).toBe(true);
        },
      ),
      { numRuns: testSize(150), seed: 1302 },
    );
  });

  it('tokenBudget reaches its budget whenever what it must keep fits, and says so when it cannot', async () => {
    await fc.assert(
      fc.asyncProperty(
        conversationArbitrary,
        fc.integer({ min: 0, max: 6000 }),
        fc.integer({ min: 0, max: 4 }),
        async (shape, budget, minimumPreserved) => {
          const messages = deepFreeze(buildConversation(shape));
          const result = await applyCompaction(messages, tokenBudget({ budget, strategies: [], minimumPreserved }));
          expect(projectionProblems(messages, result.messages).join('\n')).toBe('');
          const groups = groupMessages(messages);
          const nonSystem = groups.filter((group) => group.kind !== 'system');
          const floorStart = Math.max(0, nonSystem.length - Math.max(1, minimumPreserved));
          // The projection must open with the user: the turn the oldest kept group belongs to keeps its leading user message.
          const turnStart = nonSystem
            .slice(0, floorStart + 1)
            .findLastIndex((group) => group.kind === 'user' || group.kind === 'summary');
          const mustKeep = [
            ...groups.filter((group) => group.kind === 'system'),
            ...nonSystem.slice(floorStart),
            ...(turnStart >= 0 && turnStart < floorStart ? [nonSystem[turnStart]!] : []),
          ].reduce((sum, group) => sum + group.tokens, 0);
          if (mustKeep <= budget) expect(result.report.tokensAfter).toBeLessThanOrEqual(budget);
          else expect(result.report.notes?.join(' ')).toMatch(/over the budget/);
        },
      ),
      { numRuns: testSize(200), seed: 1303 },
    );
  });
});

function isSubsequence(candidate: readonly string[], sequence: readonly string[]): boolean {
  let position = 0;
  for (const item of sequence) if (position < candidate.length && candidate[position] === item) position++;
  return position === candidate.length;
}
