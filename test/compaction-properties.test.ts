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
  validateProjection,
  type CompactionStrategy,
} from '@ctxhost/compaction';
import { groupMessages, type Message, type SummaryRequest } from '@ctxhost/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/** One step after a user message: a plain answer, or parallel calls whose results come in one or several messages, maybe after an approval. */
const stepArbitrary = fc.oneof(
  fc.record({ kind: fc.constant('text' as const), words: fc.integer({ min: 1, max: 60 }) }),
  fc.record({
    kind: fc.constant('tools' as const),
    calls: fc.integer({ min: 1, max: 3 }),
    split: fc.boolean(),
    approval: fc.boolean(),
    words: fc.integer({ min: 1, max: 120 }),
  }),
);
const conversationArbitrary = fc.record({
  system: fc.boolean(),
  priorSummary: fc.boolean(),
  turns: fc.array(fc.array(stepArbitrary, { maxLength: 4 }), { minLength: 1, maxLength: 12 }),
});

type Shape = typeof conversationArbitrary extends fc.Arbitrary<infer T> ? T : never;

function buildConversation(shape: Shape): Message[] {
  let next = 0;
  const message = (role: Message['role'], text: string, meta?: Message['meta']): Message => {
    const id = `m${++next}`;
    return { id, role, parts: [{ id: `${id}:0`, type: 'text', text }], ...(meta === undefined ? {} : { meta }) };
  };
  const filler = (count: number) => Array.from({ length: count }, (_, i) => `w${i}`).join(' ');
  const messages: Message[] = [];
  if (shape.system) messages.push(message('system', 'You are helpful.'));
  if (shape.priorSummary) messages.push(message('user', '[Summary] earlier work', { summary: { covers: ['old'], engine: 'summarization', source: 'model' } }));
  for (const steps of shape.turns) {
    messages.push(message('user', `question ${next}`));
    for (const step of steps) {
      if (step.kind === 'text') {
        messages.push(message('assistant', filler(step.words)));
        continue;
      }
      const callIds = Array.from({ length: step.calls }, (_, i) => `call-${next}-${i}`);
      const callId = `m${++next}`;
      messages.push({ id: callId, role: 'assistant', parts: callIds.map((id, i) => ({ id: `${callId}:${i}`, type: 'tool-call' as const, callId: id, name: `tool${i}`, input: { n: i } })) });
      if (step.approval) messages.push(message('user', 'approved'));
      const chunks = step.split ? callIds.map((id) => [id]) : [callIds];
      for (const chunk of chunks) {
        const resultId = `m${++next}`;
        messages.push({ id: resultId, role: 'user', parts: chunk.map((id, i) => ({ id: `${resultId}:${i}`, type: 'tool-result' as const, callId: id, output: `ok ${filler(step.words)}` })) });
      }
    }
  }
  return messages;
}

const summarize = async (request: SummaryRequest) => `summary of ${request.messages.length} messages`;
const preserve = fc.record({ minimumPreserved: fc.integer({ min: 0, max: 6 }), pinFirstUserMessage: fc.boolean(), pinSummaries: fc.boolean() });
/** A strategy with a readable description, so a counterexample says which one failed. */
interface Described {
  strategy: CompactionStrategy;
  description: string;
  toString(): string;
}
const described = (description: string, strategy: CompactionStrategy): Described => ({ strategy, description, toString: () => description });
const strategyArbitrary: fc.Arbitrary<Described> = fc.letrec<{ strategy: Described }>((tie) => ({
  strategy: fc.oneof(
    { depthSize: 'small' },
    fc.tuple(fc.integer({ min: 0, max: 3000 }), preserve).map(([limit, options]) => described(`truncation(${limit}, ${JSON.stringify(options)})`, truncation({ trigger: triggers.tokensExceed(limit), ...options }))),
    fc.tuple(fc.integer({ min: 0, max: 6 }), preserve).map(([turns, options]) => described(`slidingWindow(turns ${turns}, ${JSON.stringify(options)})`, slidingWindow({ keepLastTurns: turns, ...options }))),
    fc.tuple(fc.integer({ min: 0, max: 12 }), preserve).map(([groups, options]) => described(`slidingWindow(groups ${groups}, ${JSON.stringify(options)})`, slidingWindow({ keepLastGroups: groups, ...options }))),
    fc.tuple(fc.integer({ min: 0, max: 3 }), preserve).map(([keep, options]) => described(`toolResultCompaction(${keep}, ${JSON.stringify(options)})`, toolResultCompaction({ keepLastToolCallGroups: keep, ...options }))),
    fc.tuple(fc.integer({ min: 0, max: 3 }), preserve).map(([keep, options]) => described(`selectiveToolCall(${keep}, ${JSON.stringify(options)})`, selectiveToolCall({ keepLastToolCallGroups: keep, ...options }))),
    fc.tuple(fc.integer({ min: 0, max: 3000 }), preserve).map(([limit, options]) => described(`summarization(${limit}, ${JSON.stringify(options)})`, summarization({ summarizer: summarize, trigger: triggers.tokensExceed(limit), ...options }))),
    fc.array(tie('strategy'), { maxLength: 3 }).map((children) => described(`pipeline(${children.join(', ')})`, pipeline(children.map((child) => child.strategy)))),
    fc.tuple(fc.integer({ min: 0, max: 3000 }), fc.array(tie('strategy'), { maxLength: 3 }), fc.boolean(), preserve).map(([budget, children, earlyStop, options]) =>
      described(`tokenBudget(${budget}, [${children.join(', ')}], ${earlyStop}, ${JSON.stringify(options)})`, tokenBudget({ budget, strategies: children.map((child) => child.strategy), earlyStop, ...options })),
    ),
  ),
})).strategy;

describe('compaction properties over random conversations', () => {
  it('never splits a group, keeps system messages, projects a sub-sequence plus summaries, and stays valid for the API', async () => {
    await fc.assert(
      fc.asyncProperty(conversationArbitrary, strategyArbitrary, async (shape, { strategy }) => {
        const messages = buildConversation(shape);
        const result = await applyCompaction(messages, strategy);
        const projected = new Set(result.messages.map((message) => message.id));
        const originalIds = new Set(messages.map((message) => message.id));
        for (const group of groupMessages(messages)) {
          const kept = group.messages.filter((message) => projected.has(message.id)).length;
          expect([0, group.messageCount]).toContain(kept);
          if (group.kind === 'system') expect(kept).toBe(group.messageCount);
        }
        const groupedOrder = groupMessages(messages).flatMap((group) => group.messages.map((message) => message.id));
        const originalsInProjection = result.messages.filter((message) => originalIds.has(message.id)).map((message) => message.id);
        expect(isSubsequence(originalsInProjection, groupedOrder)).toBe(true);
        for (const message of result.messages) if (!originalIds.has(message.id)) expect(message.meta?.summary).toBeDefined();
        expect(validateProjection(result.messages)).toEqual([]);
        expect(result.report.tokensAfter).toBe(result.report.tokensBefore - (result.report.tokensBefore - result.report.tokensAfter));
      }),
      { numRuns: 500 },
    );
  });

  it('without approvals in between, the projection is a sub-sequence of the original list itself', async () => {
    const adjacent = conversationArbitrary.map((shape) => ({ ...shape, turns: shape.turns.map((steps) => steps.map((step) => (step.kind === 'tools' ? { ...step, approval: false } : step))) }));
    await fc.assert(
      fc.asyncProperty(adjacent, strategyArbitrary, async (shape, { strategy }) => {
        const messages = buildConversation(shape);
        const result = await applyCompaction(messages, strategy);
        const originalIds = new Set(messages.map((message) => message.id));
        const kept = result.messages.filter((message) => originalIds.has(message.id)).map((message) => message.id);
        expect(isSubsequence(kept, messages.map((message) => message.id))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

function isSubsequence(candidate: readonly string[], sequence: readonly string[]): boolean {
  let position = 0;
  for (const item of sequence) if (position < candidate.length && candidate[position] === item) position++;
  return position === candidate.length;
}
