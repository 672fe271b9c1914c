import { estimateTokens, groupMessages } from '@ctxhost/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversationArbitrary, deepFreeze } from './support/arbitrary-conversation.js';
import { testSize } from './support/test-size.js';

describe('groupMessages over the shared conversation arbitrary', () => {
  it('puts each call with exactly its results, every message in one group, no orphans, and counts every token once', () => {
    fc.assert(
      fc.property(conversationArbitrary(), (conversation) => {
        const messages = deepFreeze(conversation);
        const groups = groupMessages(messages);
        const indices = groups.flatMap((group) => group.messageIndices).sort((left, right) => left - right);
        expect(indices).toEqual(messages.map((_, index) => index));
        expect(groups.some((group) => group.orphan)).toBe(false);
        for (const group of groups) {
          const calls = group.messages.flatMap((message) =>
            message.parts.flatMap((part) => (part.type === 'tool-call' ? [part.callId] : [])),
          );
          const results = group.messages.flatMap((message) =>
            message.parts.flatMap((part) => (part.type === 'tool-result' ? [part.callId] : [])),
          );
          expect([...results].sort()).toEqual([...calls].sort());
          expect([...group.callIds].sort()).toEqual([...calls].sort());
          if (group.kind === 'tool_call')
            expect(group.messages.filter((message) => message.role === 'assistant')).toHaveLength(1);
          else expect(group.messageCount).toBe(1);
        }
        expect(groups.filter((group) => group.kind === 'system').length).toBe(
          messages.filter((message) => message.role === 'system').length,
        );
        expect(groups.reduce((sum, group) => sum + group.tokens, 0)).toBe(
          messages.reduce((sum, message) => sum + estimateTokens(message), 0),
        );
      }),
      { numRuns: testSize(250), seed: 1701 },
    );
  });
});
