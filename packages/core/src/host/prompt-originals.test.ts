import { describe, expect, it } from 'vitest';
import type { Message } from '../model/message.js';
import { createPromptOriginals } from './prompt-originals.js';

const message = (id: string, texts: string[]): Message => ({
  id,
  role: 'user',
  parts: texts.map((text, index) => ({ id: `${id}:${index}`, type: 'text', text })),
});

describe('createPromptOriginals', () => {
  it("answers each unchanged part with the caller's own, and nothing for a changed or unknown one", () => {
    const originals = createPromptOriginals<string, string>();
    const first = message('0:a', ['one', 'two']);
    const second = message('0:a:b', ['three']);
    originals.remember(first, 'source a', ['a0', 'a1']);
    originals.remember(second, 'source b', ['b0']);
    expect(originals.message('0:a')).toBe('source a');
    expect(originals.unchangedPart(first.parts[1]!)).toBe('a1');
    // A copy with the same content counts as unchanged; a cache marker is not content.
    expect(originals.unchangedPart({ ...second.parts[0]!, cacheControl: { type: 'ephemeral' } })).toBe('b0');
    expect(originals.unchangedPart({ ...first.parts[0]!, text: 'edited' } as Message['parts'][number])).toBeUndefined();
    expect(originals.unchangedPart({ id: 'summary:0', type: 'text', text: 'one' })).toBeUndefined();
    expect(originals.unchangedPart({ id: '0:a:7', type: 'text', text: 'one' })).toBeUndefined();
    originals.forget('0:a');
    expect(originals.message('0:a')).toBeUndefined();
    expect(originals.unchangedPart(first.parts[0]!)).toBeUndefined();
    expect(originals.unchangedPart(second.parts[0]!)).toBe('b0');
  });

  it("answers the caller's message for the very message remembered, and nothing for a copy or an unknown one", () => {
    const originals = createPromptOriginals<string, string>();
    const remembered = message('m1', ['one']);
    originals.remember(remembered, 'source', ['s0']);
    expect(originals.sameMessage(remembered)).toBe('source');
    expect(originals.sameMessage({ ...remembered })).toBeUndefined();
    expect(originals.sameMessage(message('m2', ['one']))).toBeUndefined();
  });

  it('answers a seeded prompt by position, in order or not, as if each message had been remembered', () => {
    const prompt = ['a', 'b', 'c', 'd'].map((id) => message(`p-${id}`, [`${id} one`, `${id} two`]));
    const originals = createPromptOriginals<string, string>();
    originals.seed({
      length: prompt.length,
      message: (index) => prompt[index]!,
      source: (index) => `source ${index}`,
      sourceParts: (index) => [`${index}.0`, `${index}.1`],
    });
    const appended = message('p-e', ['e one']);
    originals.remember(appended, 'source e', ['e.0']);
    // In order, as a renderer asks, then out of order (the head, the end, one in the middle).
    expect(prompt.map((each) => originals.sameMessage(each))).toEqual(['source 0', 'source 1', 'source 2', 'source 3']);
    expect(originals.message('p-a')).toBe('source 0');
    expect(originals.sameMessage(appended)).toBe('source e');
    expect(originals.message('p-c')).toBe('source 2');
    expect(originals.unchangedPart(prompt[1]!.parts[1]!)).toBe('1.1');
    expect(originals.unchangedPart({ ...prompt[3]!.parts[0]!, cacheControl: { type: 'ephemeral' } })).toBe('3.0');
    // A copy is not the very message, but its parts are the caller's.
    const copy = { ...prompt[2]! };
    expect(originals.sameMessage(copy)).toBeUndefined();
    expect(originals.unchangedPart(copy.parts[0]!)).toBe('2.0');
    expect(originals.message('p-unknown')).toBeUndefined();
    originals.forget('p-b');
    expect(originals.message('p-b')).toBeUndefined();
    expect(originals.sameMessage(prompt[1]!)).toBeUndefined();
    expect(originals.unchangedPart(prompt[1]!.parts[0]!)).toBeUndefined();
    expect(originals.message('p-d')).toBe('source 3');
  });
});
