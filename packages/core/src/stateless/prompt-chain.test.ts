import { describe, expect, it } from 'vitest';
import type { MappedPromptItem } from '../host/prompt-mirror.js';
import { createPromptChainer } from './prompt-chain.js';

/** A framework's prompt item with a nested part, as the AI SDK's are. */
interface Item {
  role: 'system' | 'user' | 'assistant';
  content: { type: 'text'; text: string; data?: Uint8Array }[];
}

function chainerCountingMaps() {
  const mapped: string[] = [];
  const chainer = createPromptChainer<Item, Item['content'][number]>((item, id) => {
    mapped.push(item.content[0]!.text);
    return mapAll(item, id);
  });
  return { chainer, mapped };
}

const texts = ['system', 'first ask', 'answer', 'second ask', 'second answer', 'third ask'];
const roles: Item['role'][] = ['system', 'user', 'assistant', 'user', 'assistant', 'user'];

/** The prompt as a framework that rebuilds its objects each call hands it: new objects, the same strings. */
const rebuilt = (count: number): Item[] =>
  texts.slice(0, count).map((text, index) => ({ role: roles[index]!, content: [{ type: 'text', text }] }));

function hashesOf(result: ReturnType<ReturnType<typeof chainerCountingMaps>['chainer']['chain']>): readonly string[] {
  if (!result.ok) throw new Error(`unmapped ${result.unmappedType}`);
  return result.chain.hashes;
}

describe('createPromptChainer', () => {
  it('recognises a rebuilt prompt by structure: only the appended messages are mapped and hashed', () => {
    const { chainer, mapped } = chainerCountingMaps();
    const before = hashesOf(chainer.chain(rebuilt(4)));
    mapped.length = 0;
    const after = hashesOf(chainer.chain(rebuilt(6)));
    // The opening (two messages) names the conversation; the rest of the known prefix is compared, not mapped.
    expect(mapped).toEqual(['system', 'first ask', 'second answer', 'third ask']);
    expect(after.slice(0, 4)).toEqual(before);
    expect(after).toEqual(hashesOf(createPromptChainer(mapAll).chain(rebuilt(6))));
  });

  it('maps again from a message that changed, and gives the changed prompt its own hashes', () => {
    const { chainer, mapped } = chainerCountingMaps();
    const before = hashesOf(chainer.chain(rebuilt(6)));
    const edited = rebuilt(6);
    edited[3] = { role: 'user', content: [{ type: 'text', text: 'second ask, edited' }] };
    mapped.length = 0;
    const after = hashesOf(chainer.chain(edited));
    expect(mapped).toEqual(['system', 'first ask', 'second ask, edited', 'second answer', 'third ask']);
    expect(after.slice(0, 3)).toEqual(before.slice(0, 3));
    expect(after[3]).not.toBe(before[3]);
    expect(after[5]).not.toBe(before[5]);
  });

  it('treats an equal copy of a non-plain object (bytes) as changed: mapped again, same hash', () => {
    const { chainer, mapped } = chainerCountingMaps();
    const withBytes = (): Item[] => {
      const prompt = rebuilt(4);
      prompt[2]!.content[0]!.data = new Uint8Array([1, 2, 3]);
      return prompt;
    };
    const before = hashesOf(chainer.chain(withBytes()));
    mapped.length = 0;
    const after = hashesOf(chainer.chain(withBytes()));
    expect(mapped).toEqual(['system', 'first ask', 'answer', 'second ask']);
    expect(after).toEqual(before);
  });
});

function mapAll(item: Item, id: string): MappedPromptItem<Item['content'][number]> {
  return {
    ok: true,
    message: {
      id,
      role: item.role,
      parts: item.content.map((part, index) => ({ id: `${id}:${index}`, type: 'text', text: part.text })),
    },
    sourceParts: item.content,
  };
}
