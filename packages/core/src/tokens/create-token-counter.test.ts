import { describe, expect, it } from 'vitest';
import { createTokenCounter } from './create-token-counter.js';
import { estimateTextTokens, estimateTokens } from './estimate-tokens.js';
import type { Message } from '../model/message.js';

function textMessage(id: string, text: string): Message {
  return { id, role: 'user', parts: [{ id: `${id}-p`, type: 'text', text }] };
}

/** An estimator that changes with any character, so a stale cache entry shows. */
function codeSum(message: Message): number {
  let sum = 0;
  for (const character of JSON.stringify(message.parts)) sum += character.charCodeAt(0);
  return sum;
}

function history(length: number): Message[] {
  return Array.from({ length }, (_, index) => textMessage(`m${index}`, `message number ${index} with some words`));
}

describe('createTokenCounter', () => {
  it('counts like estimateTokens by default', () => {
    const counter = createTokenCounter();
    const messages = history(5);
    expect(counter.countAll(messages)).toBe(messages.reduce((sum, message) => sum + estimateTokens(message), 0));
    expect(counter.countText('hello world')).toBe(estimateTextTokens('hello world'));
    expect(counter.name).toBe('estimate');
  });

  it('uses the given estimator and name', () => {
    const counter = createTokenCounter({ estimate: (message) => message.parts.length * 10, name: 'fixed' });
    expect(counter.countAll(history(3))).toBe(30);
    expect(counter.name).toBe('fixed');
  });

  it('re-counts only the appended messages', () => {
    const counter = createTokenCounter();
    const messages = history(100);
    counter.countAll(messages);
    expect(counter.stats).toEqual({ hits: 0, misses: 100 });
    messages.push(...history(110).slice(100));
    counter.countAll(messages);
    expect(counter.stats).toEqual({ hits: 100, misses: 110 });
  });

  it('answers an equal copy from the id and content hash', () => {
    const counter = createTokenCounter();
    const original = textMessage('a', 'same text');
    counter.count(original);
    counter.count(structuredClone(original));
    expect(counter.stats).toEqual({ hits: 1, misses: 1 });
  });

  it('keeps both versions of an id counted when they are counted in turn (a message and its shortened copy)', () => {
    const counter = createTokenCounter({ estimate: codeSum });
    const original = textMessage('a', 'the whole tool output, long');
    const shortened = textMessage('a', 'shortened');
    const first = [counter.count(original), counter.count(shortened)];
    expect([counter.count(original), counter.count(shortened)]).toEqual(first);
    expect(counter.stats).toEqual({ hits: 2, misses: 2 });
  });

  const changes: { name: string; change: (message: Message) => Message }[] = [
    {
      name: 'a new message object with other text',
      change: (message) => textMessage(message.id, 'a much longer text than before, so more tokens'),
    },
    { name: 'same-length text in a new object', change: (message) => textMessage(message.id, 'tiny text') },
    {
      name: 'a part replaced in place by a longer one',
      change: (message) => {
        message.parts[0] = { id: 'x', type: 'text', text: 'replaced by something far longer' };
        return message;
      },
    },
    {
      name: 'a part appended in place',
      change: (message) => {
        message.parts.push({ id: 'y', type: 'text', text: 'more' });
        return message;
      },
    },
  ];

  it.each(changes)('invalidates on $name', ({ change }) => {
    const counter = createTokenCounter({ estimate: codeSum });
    const message = textMessage('a', 'tiny word');
    const before = counter.count(message);
    const changed = change(message);
    const after = counter.count(changed);
    expect(counter.stats.misses).toBe(2);
    expect(after).toBe(codeSum(changed));
    expect(after).not.toBe(before);
  });

  it('counts an empty history as zero', () => {
    expect(createTokenCounter().countAll([])).toBe(0);
  });
});
