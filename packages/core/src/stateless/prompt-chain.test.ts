import { describe, expect, it } from 'vitest';
import type { MappedPromptItem } from '../host/prompt-mirror.js';
import { createPromptChainer, listOf } from './prompt-chain.js';

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
  return listOf(result.chain.hashes);
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

describe('createPromptChainer on a caller that hands its list again', () => {
  const itemsOf = (count: number): Item[] => rebuilt(count);

  it('takes the known prefix by position: no message mapped again, the same message objects', () => {
    const { chainer, mapped } = chainerCountingMaps();
    const prompt = itemsOf(6);
    const first = chainer.chain(prompt.slice(0, 4));
    mapped.length = 0;
    const next = chainer.chain(prompt);
    if (!first.ok || !next.ok) throw new Error('unmapped');
    expect(mapped).toEqual(['second answer', 'third ask']);
    for (let index = 0; index < 4; index++) expect(next.chain.messages.at(index)).toBe(first.chain.messages.at(index));
    expect(listOf(next.chain.hashes)).toEqual(hashesOf(createPromptChainer(mapAll).chain(itemsOf(6))));
    expect(next.chain.messages.at(3)!.id).toBe(`p-${next.chain.hashes.at(3)!.slice(0, 24)}`);
  });

  it('keeps each chain its own when two prompts branch off one prefix (a retry with another last message)', () => {
    const { chainer } = chainerCountingMaps();
    const prompt = itemsOf(6);
    const first = chainer.chain(prompt);
    const before = hashesOf(first);
    const branch = [
      ...prompt.slice(0, 4),
      { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'other' }] },
    ];
    const branched = chainer.chain(branch);
    const longer = chainer.chain([...branch, prompt[5]!]);
    expect(hashesOf(first)).toEqual(before);
    expect(hashesOf(branched)).toEqual(hashesOf(createPromptChainer(mapAll).chain(branch)));
    expect(hashesOf(longer).slice(0, 5)).toEqual(hashesOf(branched));
    expect(hashesOf(longer)[5]).not.toBe(before[5]);
    // The first prompt again: still its own messages.
    expect(hashesOf(chainer.chain(prompt))).toEqual(before);
  });

  it('chains what a caller’s own list holds on each call, when the caller appends to it or edits it in place', () => {
    const { chainer } = chainerCountingMaps();
    // An SDK loop: the same array, pushed to after each call.
    const prompt = itemsOf(4);
    chainer.chain(prompt);
    prompt.push(...itemsOf(6).slice(4));
    expect(hashesOf(chainer.chain(prompt))).toEqual(hashesOf(createPromptChainer(mapAll).chain(itemsOf(6))));
    // An earlier message replaced in place: its hash and every one after it are the edited prompt's.
    prompt[3] = { role: 'user', content: [{ type: 'text', text: 'an edited ask' }] };
    const edited = hashesOf(createPromptChainer(mapAll).chain([...prompt]));
    expect(hashesOf(chainer.chain(prompt))).toEqual(edited);
  });

  it('keeps the objects each prompt held, not the caller’s list: later changes to the list, or a rebuilt prompt, change no chain', () => {
    const { chainer } = chainerCountingMaps();
    const prompt = itemsOf(6);
    const first = chainer.chain(prompt);
    const held = [...prompt];
    prompt[3] = { role: 'user', content: [{ type: 'text', text: 'an edited ask' }] };
    const copies = itemsOf(6);
    const again = chainer.chain(copies);
    if (!first.ok || !again.ok) throw new Error('unmapped');
    expect(listOf(first.chain.sources)).toEqual(held);
    for (let index = 0; index < 6; index++) {
      expect(first.chain.sources.at(index)).toBe(held[index]);
      expect(again.chain.sources.at(index)).toBe(copies[index]);
    }
    expect(listOf(again.chain.hashes)).toEqual(listOf(first.chain.hashes));
  });

  it('gives a message whose source changed outside what is hashed (a moved cache marker) its own source parts', () => {
    const { chainer } = chainerCountingMaps();
    const prompt = itemsOf(6);
    chainer.chain(prompt);
    const marked = [...prompt];
    marked[3] = { role: 'user', content: [{ type: 'text', text: 'second ask', data: new Uint8Array([1]) }] };
    const next = chainer.chain(marked);
    if (!next.ok) throw new Error('unmapped');
    expect(next.chain.items.at(3)!.sourceParts[0]).toBe(marked[3].content[0]);
    expect(listOf(next.chain.hashes)).toEqual(hashesOf(chainer.chain(prompt)));
  });
});

describe('createPromptChainer on a head apart from the list (instructions, a system message)', () => {
  const system = (text: string): Item => ({ role: 'system', content: [{ type: 'text', text }] });
  const joinedHashes = (head: Item, list: readonly Item[]) =>
    hashesOf(createPromptChainer(mapAll).chain([head, ...list]));

  it('chains the head followed by the list, as the joined array: hashes, sources, no message mapped twice', () => {
    const { chainer, mapped } = chainerCountingMaps();
    const head = system('be brief');
    const list = rebuilt(6).slice(1);
    chainer.chain({ head: [head], list: list.slice(0, 3) });
    mapped.length = 0;
    const next = chainer.chain({ head: [head], list });
    if (!next.ok) throw new Error('unmapped');
    expect(mapped).toEqual(['second answer', 'third ask']);
    expect(listOf(next.chain.hashes)).toEqual(joinedHashes(head, list));
    expect(listOf(next.chain.sources)).toEqual([head, ...list]);
    for (let index = 0; index < list.length; index++) expect(next.chain.sources.at(index + 1)).toBe(list[index]);
  });

  it('gives a changed head (instructions changed between calls, the same list) its own hashes from the first message on', () => {
    const { chainer } = chainerCountingMaps();
    const list = rebuilt(6).slice(1);
    const before = hashesOf(chainer.chain({ head: [system('be brief')], list }));
    const changed = system('be thorough');
    const after = chainer.chain({ head: [changed], list });
    if (!after.ok) throw new Error('unmapped');
    expect(listOf(after.chain.hashes)).toEqual(joinedHashes(changed, list));
    expect(after.chain.hashes.at(0)).not.toBe(before[0]);
    expect(after.chain.sources.at(0)).toBe(changed);
    // The head dropped: the list alone, its own chain.
    expect(hashesOf(chainer.chain({ head: [], list }))).toEqual(hashesOf(createPromptChainer(mapAll).chain(list)));
  });

  it('chains what a list reused after a head holds on each call: pushed to, then an earlier message replaced in place', () => {
    const { chainer } = chainerCountingMaps();
    const head = system('be brief');
    const all = rebuilt(6).slice(1);
    const list = all.slice(0, 3);
    chainer.chain({ head: [head], list });
    list.push(...all.slice(3));
    expect(hashesOf(chainer.chain({ head: [head], list }))).toEqual(joinedHashes(head, all));
    list[2] = { role: 'assistant', content: [{ type: 'text', text: 'an edited answer' }] };
    const edited = chainer.chain({ head: [head], list });
    if (!edited.ok) throw new Error('unmapped');
    expect(listOf(edited.chain.hashes)).toEqual(joinedHashes(head, list));
    expect(edited.chain.sources.at(3)).toBe(list[2]);
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
