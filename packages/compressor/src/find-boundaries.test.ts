import { createTokenCounter, type Message, type Part } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { findBoundaries } from './find-boundaries.js';

function message(id: string, role: Message['role'], parts: Part[]): Message {
  return { id, role, parts };
}

const thinking: Part = { id: 'r', type: 'reasoning', text: 'I should read the file first', signature: 'c2ln' };
const call: Part = { id: 'c', type: 'tool-call', callId: 'call-1', name: 'read_file', input: { path: 'a.ts' } };
const result: Part = { id: 'o', type: 'tool-result', callId: 'call-1', output: 'export const a = 1;' };
const text = (words: string): Part => ({ id: 't', type: 'text', text: words });

/** user, thinking (its own message), call, result, user, answer: the step as opencode and the AI SDK record it. */
const conversation = [
  message('u1', 'user', [text('read a.ts')]),
  message('a1', 'assistant', [thinking]),
  message('a2', 'assistant', [call]),
  message('t1', 'tool', [result]),
  message('u2', 'user', [text('thanks, now explain it')]),
  message('a3', 'assistant', [text('a exports one constant')]),
];

const options = { protectFirstN: 0, protectLastN: 0, tailBudgetTokens: 0, counter: createTokenCounter() };

describe('findBoundaries and a reasoning-only assistant message before a call', () => {
  it.each([
    ['the head ends between the thinking and its call', { protectFirstN: 2 }, { headEnd: 1 }],
    ['the tail starts between the thinking and its call', { protectLastN: 4 }, { tailStart: 1 }],
    ['the newest request pins the tail to the call', { protectFirstN: 1, pinFrom: 2 }, { tailStart: 1 }],
  ])('%s: the cut moves before the thinking', (_, overrides, expected) => {
    expect(findBoundaries(conversation, { ...options, ...overrides })).toMatchObject(expected);
  });

  it('leaves a cut after thinking that answered in text alone', () => {
    const answered = [
      message('u1', 'user', [text('hi')]),
      message('a1', 'assistant', [thinking]),
      message('a2', 'assistant', [text('hello')]),
    ];
    expect(findBoundaries(answered, { ...options, protectFirstN: 2, protectLastN: 1 })).toEqual({
      headEnd: 2,
      tailStart: 2,
    });
  });
});
