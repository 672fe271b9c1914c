import { describe, expect, it } from 'vitest';
import type { Message, Part } from '../model/message.js';
import { contentKey } from './content-key.js';

const message = (parts: Part[], role: Message['role'] = 'user'): Message => ({ id: 'm', role, parts });
const text = (value: string, id = 'm:0'): Part => ({ id, type: 'text', text: value });

describe('contentKey', () => {
  it('leaves out ids and cache markers', () => {
    const marked: Part = { ...text('hello', 'other:0'), cacheControl: { type: 'ephemeral' } };
    expect(contentKey({ ...message([marked]), id: 'other' })).toBe(contentKey(message([text('hello')])));
  });

  it('tells apart what a separator or a split could make look alike', () => {
    const keys = [
      message([text('ab')]),
      message([text('a'), text('b')]),
      message([text('a}{4:type')]),
      message([text('s1:x')]),
      message([text('ab')], 'assistant'),
      message([{ id: 'm:0', type: 'tool-call', callId: 'c', name: 'n', input: { value: '1' } }]),
      message([{ id: 'm:0', type: 'tool-call', callId: 'c', name: 'n', input: { value: 1 } }]),
      message([
        { id: 'm:0', type: 'tool-call', callId: 'c', name: 'n', input: { a: { b: { c: { d: { e: 'x' } } } } } },
      ]),
      message([
        { id: 'm:0', type: 'tool-call', callId: 'c', name: 'n', input: { a: { b: { c: { d: { e: 'y' } } } } } },
      ]),
      message([{ id: 'm:0', type: 'tool-result', callId: 'c', output: [{ type: 'text', text: 'ab' }] }]),
      message([{ id: 'm:0', type: 'tool-result', callId: 'c', output: 'ab' }]),
    ].map(contentKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('is the same string in every process and version that keeps the format (chain hashes, and so every cached compaction, depend on it)', () => {
    const call: Part = {
      id: 'm:1',
      type: 'tool-call',
      callId: 'c1',
      name: 'edit',
      input: { path: 'a.ts', edits: [{ from: 1, text: 'x' }], deep: { a: { b: { c: 'd' } } } },
    };
    expect(contentKey(message([text('hi'), call], 'assistant'))).toBe(
      'assistant[{4:types4:text4:texts2:hi}{4:types9:tool-call6:callIds2:c14:names4:edit5:input{4:paths4:a.ts5:edits[{4:fromj1:14:texts1:x}]4:deep{1:a{1:bj9:{"c":"d"}}}}}]',
    );
  });
});
