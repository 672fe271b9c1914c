import { fromAnthropic, fromOpenAI, toAnthropic, toOpenAI } from '@ctxhost/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversationArbitrary } from './support/arbitrary-conversation.js';
import { testSize } from './support/test-size.js';

describe('adapters over the shared conversation arbitrary', () => {
  it('Anthropic: wire → ctxhost → wire gives back an equal value for every valid conversation', () => {
    fc.assert(
      fc.property(conversationArbitrary(), (conversation) => {
        const wire = toAnthropic(conversation);
        const again = toAnthropic(fromAnthropic(wire.messages, wire.system));
        expect(again).toEqual(wire);
      }),
      { numRuns: testSize(200), seed: 1801 },
    );
  });

  it('OpenAI: wire → ctxhost → wire gives back an equal value for every valid conversation without thinking', () => {
    fc.assert(
      fc.property(conversationArbitrary(), (conversation) => {
        const withoutThinking = conversation
          .map((message) => ({ ...message, parts: message.parts.filter((part) => part.type !== 'reasoning') }))
          .filter((message) => message.parts.length > 0);
        const wire = toOpenAI(withoutThinking);
        expect(toOpenAI(fromOpenAI(wire))).toEqual(wire);
      }),
      { numRuns: testSize(200), seed: 1802 },
    );
  });
});
