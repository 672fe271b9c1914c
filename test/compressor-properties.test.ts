import { createTokenCounter, type Message, type Summarizer } from '@ctxhost/core';
import { createCompressor } from '@ctxhost/compressor';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversationArbitrary, deepFreeze } from './support/arbitrary-conversation.js';
import { projectionProblems } from './support/projection-invariants.js';
import { testSize } from './support/test-size.js';

const settingsArbitrary = fc.record({
  contextWindow: fc.integer({ min: 200, max: 40_000 }),
  threshold: fc.double({ min: 0.1, max: 0.9, noNaN: true }),
  targetRatio: fc.double({ min: 0.1, max: 0.8, noNaN: true }),
  protectLastN: fc.integer({ min: 1, max: 25 }),
  targetTokens: fc.option(fc.integer({ min: 50, max: 20_000 }), { nil: undefined }),
});

/** No model: the extractive summary, a summarizer that fails, or one that answers. */
const summarizerArbitrary = fc.constantFrom<[string, Summarizer | undefined]>(
  ['none (extractive)', undefined],
  [
    'failing',
    {
      name: 'failing',
      summarize: async () => {
        throw new Error('summary model unavailable');
      },
    },
  ],
  [
    'answering',
    { name: 'answering', summarize: async (request) => `## Goal\nsummary of ${request.messages.length} messages` },
  ],
);

describe('compressor properties over random conversations', () => {
  it('never splits a group (a reasoning-only message stays with its call), keeps the system prompt, pairs every call with its result, produces no empty content and leaves its input unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(
        conversationArbitrary({ thinkingMessages: true }),
        settingsArbitrary,
        summarizerArbitrary,
        async (conversation, settings, [, summarizer]) => {
          const messages: readonly Message[] = deepFreeze(conversation);
          const before = structuredClone(conversation);
          const compressor = createCompressor({
            compression: {
              threshold: settings.threshold,
              targetRatio: settings.targetRatio,
              protectLastN: settings.protectLastN,
            },
            ...(summarizer === undefined ? {} : { summarizer }),
          });
          const { messages: projection, report } = await compressor.compress(messages, {
            sessionId: 's',
            contextWindow: settings.contextWindow,
            counter: createTokenCounter(),
            reason: 'threshold',
            ...(settings.targetTokens === undefined ? {} : { targetTokens: settings.targetTokens }),
          });
          expect(messages).toEqual(before);
          expect(projectionProblems(messages, projection).join('\n')).toBe('');
          expect(report.messagesAfter).toBe(projection.length);
          const systemIds = messages.filter((message) => message.role === 'system').map((message) => message.id);
          expect(projection.filter((message) => message.role === 'system').map((message) => message.id)).toEqual(
            systemIds,
          );
          const summaries = projection.filter((message) => message.meta?.summary?.engine === 'compressor');
          expect(summaries.length).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: testSize(250), seed: 2601 },
    );
  });

  it('compressing its own output again keeps one summary and the same invariants', async () => {
    await fc.assert(
      fc.asyncProperty(
        conversationArbitrary(),
        fc.integer({ min: 300, max: 8000 }),
        async (conversation, contextWindow) => {
          const compressor = createCompressor({ compression: { protectLastN: 4, threshold: 0.5, targetRatio: 0.2 } });
          const context = {
            sessionId: 's',
            contextWindow,
            counter: createTokenCounter(),
            reason: 'threshold' as const,
          };
          const once = await compressor.compress(deepFreeze(conversation), context);
          const twice = await compressor.compress(deepFreeze(once.messages), context);
          expect(projectionProblems(conversation, twice.messages).join('\n')).toBe('');
          expect(
            twice.messages.filter((message) => message.meta?.summary?.engine === 'compressor').length,
          ).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: testSize(120), seed: 2602 },
    );
  });
});
