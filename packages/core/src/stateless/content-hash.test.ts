import { hash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Message, Part } from '../model/message.js';
import { contentKeyDigest } from './content-hash.js';
import { contentKey } from './content-key.js';

const text = (value: string, index = 0): Part => ({ id: `m:${index}`, type: 'text', text: value });
const message = (parts: Part[]): Message => ({ id: 'm', role: 'assistant', parts });

/** Strings whose UTF-8 bytes an encoder could get wrong: pairs, lone halves, two-byte characters, at a piece's edges. */
const awkward = [
  '',
  'ascii',
  'é',
  'naïve café',
  '😀',
  'a😀b',
  '\uD83D',
  '\uDE00',
  '\uDE00\uD83D',
  `${'x'.repeat(62)}😀`,
  `${'x'.repeat(63)}é`,
  `😀${'y'.repeat(300)}\uD83D`,
  'ж'.repeat(5000),
  `${'long text '.repeat(200_000)}\uDE00`,
];

describe('contentKeyDigest', () => {
  it('is sha256 of the head and the content key as one string, so chain hashes are what they were', () => {
    const head = '0123456789abcdef0123456789abcdef';
    for (const value of awkward) {
      const call: Part = {
        id: 'm:1',
        type: 'tool-call',
        callId: value,
        name: 'edit',
        input: { path: value, deep: { a: { b: { c: value } } }, list: [value, 1, null] },
      };
      const result: Part = { id: 'm:2', type: 'tool-result', callId: 'c', output: value };
      const each = message([text(value), call, result]);
      expect(contentKeyDigest(head, each)).toBe(hash('sha256', head + contentKey(each), 'hex'));
    }
    const all = message(awkward.map((value, index) => text(value, index)));
    expect(contentKeyDigest('', all)).toBe(hash('sha256', contentKey(all), 'hex'));
  });

  it('gives a short key after a long one what a fresh hasher gives', () => {
    const short = message([text('after')]);
    const expected = hash('sha256', contentKey(short), 'hex');
    contentKeyDigest('', message([text('z'.repeat(3_000_000))]));
    expect(contentKeyDigest('', short)).toBe(expected);
  });
});
