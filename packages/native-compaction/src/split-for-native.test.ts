import { createTokenCounter, type Message } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { splitForNative } from './split-for-native.js';

const text = (id: string, role: Message['role'], words = 200): Message => ({
  id,
  role,
  parts: [{ id: `${id}:0`, type: 'text', text: `${id} ${'word '.repeat(words)}` }],
});
const call = (id: string): Message => ({
  id,
  role: 'assistant',
  parts: [{ id: `${id}:0`, type: 'tool-call', callId: `c-${id}`, name: 'ls', input: {} }],
});
const result = (id: string, of: string): Message => ({
  id,
  role: 'user',
  parts: [{ id: `${id}:0`, type: 'tool-result', callId: `c-${of}`, output: 'x '.repeat(300) }],
});

describe('splitForNative', () => {
  const counter = createTokenCounter();
  const conversation = [
    text('sys', 'system'),
    text('u1', 'user'),
    call('a1'),
    result('r1', 'a1'),
    text('u2', 'user'),
    call('a2'),
    result('r2', 'a2'),
    text('u3', 'user'),
    text('a3', 'assistant'),
  ];

  it('keeps the system head, and a tail that starts at a turn or an assistant message (never a tool result) and holds the tokens asked', () => {
    const split = splitForNative(conversation, counter.countAll(conversation.slice(-2)) + 1, counter)!;
    expect(split.head.map((message) => message.id)).toEqual(['sys']);
    // Two messages' worth plus one: the tool result before them is no place to cut, its call is.
    expect(split.tail.map((message) => message.id)).toEqual(['a2', 'r2', 'u3', 'a3']);
    expect(split.span.map((message) => message.id)).toEqual(['u1', 'a1', 'r1', 'u2']);
  });

  it('keeps at least the last turn, and gives nothing to compact when the span would be one message', () => {
    expect(splitForNative(conversation, 0, counter)!.tail.map((message) => message.id)).toEqual(['a3']);
    expect(splitForNative(conversation.slice(0, 3), 0, counter)).toBeUndefined();
  });
});
