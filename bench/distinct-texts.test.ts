import type { Message } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { withDistinctTexts } from './distinct-texts.js';

const LONG = 'line of a tool output, the same in every copy of the corpus. '.repeat(20);

const copy = (index: number): Message[] => [
  { id: `${index}:a`, role: 'assistant', parts: [{ id: `${index}:a:0`, type: 'text', text: LONG }] },
  {
    id: `${index}:b`,
    role: 'assistant',
    parts: [{ id: `${index}:b:0`, type: 'tool-call', callId: `${index}:c`, name: 'write', input: { body: LONG } }],
  },
  {
    id: `${index}:c`,
    role: 'tool',
    parts: [{ id: `${index}:c:0`, type: 'tool-result', callId: `${index}:c`, name: 'write', output: LONG }],
  },
];

const texts = (history: readonly Message[]): string[] =>
  history.flatMap((message) =>
    message.parts.map((part) =>
      part.type === 'text'
        ? part.text
        : part.type === 'tool-call'
          ? String((part.input as { body: string }).body)
          : part.type === 'tool-result'
            ? String(part.output)
            : '',
    ),
  );

describe('withDistinctTexts', () => {
  const history = [...copy(0), ...copy(1)];
  const marked = withDistinctTexts(history);

  it('makes every repeated text distinct, throughout and not only at its start', () => {
    const all = texts(marked);
    expect(new Set(all).size).toBe(all.length);
    const tails = all.map((text) => text.slice(LONG.length - 200));
    expect(new Set(tails).size).toBe(tails.length);
  });

  it('keeps every length and the JSON size', () => {
    expect(texts(marked).map((text) => text.length)).toEqual(texts(history).map((text) => text.length));
    expect(JSON.stringify(marked).length).toBe(JSON.stringify(history).length);
  });

  it('gives the same texts for the same history, and leaves the given history alone', () => {
    expect(withDistinctTexts(history)).toEqual(marked);
    expect(texts(history).every((text) => text === LONG)).toBe(true);
  });

  it('writes no mark over a character JSON escapes or half a surrogate pair', () => {
    const text = `${'"\\\n😀'.repeat(40)}`;
    const [message] = withDistinctTexts([{ id: 'm', role: 'user', parts: [{ id: 'p', type: 'text', text }] }]);
    expect(message!.parts[0]).toEqual({ id: 'p', type: 'text', text });
  });
});
