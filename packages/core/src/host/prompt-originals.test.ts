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
});
