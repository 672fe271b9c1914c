import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTokenCounter } from './create-token-counter.js';
import { estimateTokens } from './estimate-tokens.js';
import { groupMessages } from './group-messages.js';
import type { Message, Part } from '../model/message.js';
import { messageChars } from '../model/message-chars.js';

let nextId = 0;
function message(role: Message['role'], parts: Part[], meta?: Message['meta']): Message {
  nextId++;
  return { id: `m${nextId}`, role, parts, ...(meta === undefined ? {} : { meta }) };
}
const text = (value: string): Part => ({ id: `p${++nextId}`, type: 'text', text: value });
const call = (callId: string): Part => ({
  id: `p${++nextId}`,
  type: 'tool-call',
  callId,
  name: 'bash',
  input: { command: 'ls' },
});
const result = (callId: string): Part => ({
  id: `p${++nextId}`,
  type: 'tool-result',
  callId,
  output: `output of ${callId}`,
});
const reasoning = (): Part => ({ id: `p${++nextId}`, type: 'reasoning', text: 'thinking', signature: 'sig' });

const system = () => message('system', [text('You are helpful.')]);
const user = (value = 'hi') => message('user', [text(value)]);
const assistant = (value = 'hello') => message('assistant', [text(value)]);
const calls = (...ids: string[]) => message('assistant', ids.map(call));
const results = (...ids: string[]) => message('user', ids.map(result));
const summary = () => message('user', [text('summary')], { summary: { covers: ['x'], engine: 'test' } });

interface Case {
  name: string;
  build: () => Message[];
  /** Per group: kind, message indices, orphan. */
  expected: [string, number[], boolean][];
}

const cases: Case[] = [
  {
    name: 'plain conversation',
    build: () => [system(), user(), assistant()],
    expected: [
      ['system', [0], false],
      ['user', [1], false],
      ['assistant_text', [2], false],
    ],
  },
  {
    name: 'call and adjacent result',
    build: () => [user(), calls('a'), results('a'), assistant()],
    expected: [
      ['user', [0], false],
      ['tool_call', [1, 2], false],
      ['assistant_text', [3], false],
    ],
  },
  {
    name: 'parallel calls answered in one message',
    build: () => [calls('a', 'b'), results('a', 'b')],
    expected: [['tool_call', [0, 1], false]],
  },
  {
    name: 'parallel results split over messages',
    build: () => [calls('a', 'b'), results('b'), message('tool', [result('a')])],
    expected: [['tool_call', [0, 1, 2], false]],
  },
  {
    name: 'approval message between call and result',
    build: () => [calls('a'), user('approve'), results('a')],
    expected: [
      ['tool_call', [0, 2], false],
      ['user', [1], false],
    ],
  },
  {
    name: 'reasoning stays with its assistant message',
    build: () => [
      message('assistant', [reasoning(), call('a')]),
      results('a'),
      message('assistant', [reasoning(), text('done')]),
    ],
    expected: [
      ['tool_call', [0, 1], false],
      ['assistant_text', [2], false],
    ],
  },
  {
    name: 'call without result is orphan',
    build: () => [calls('a'), user()],
    expected: [
      ['tool_call', [0], true],
      ['user', [1], false],
    ],
  },
  {
    name: 'one of two calls unanswered is orphan',
    build: () => [calls('a', 'b'), results('a')],
    expected: [['tool_call', [0, 1], true]],
  },
  {
    name: 'result without call is its own orphan group',
    build: () => [user(), results('z'), assistant()],
    expected: [
      ['user', [0], false],
      ['tool_call', [1], true],
      ['assistant_text', [2], false],
    ],
  },
  {
    name: 'result before its call is orphan',
    build: () => [results('a'), calls('a')],
    expected: [
      ['tool_call', [0], true],
      ['tool_call', [1], true],
    ],
  },
  {
    name: 'duplicate call id is ambiguous',
    build: () => [calls('a'), results('a'), calls('a'), results('a')],
    expected: [
      ['tool_call', [0], true],
      ['tool_call', [1], true],
      ['tool_call', [2], true],
      ['tool_call', [3], true],
    ],
  },
  {
    name: 'message answering two assistant messages joins them',
    build: () => [calls('a'), calls('b'), results('a', 'b')],
    expected: [['tool_call', [0, 1, 2], false]],
  },
  {
    name: 'summary message',
    build: () => [summary(), user()],
    expected: [
      ['summary', [0], false],
      ['user', [1], false],
    ],
  },
];

describe('groupMessages', () => {
  it.each(cases)('$name', ({ build, expected }) => {
    const groups = groupMessages(build());
    expect(groups.map((group) => [group.kind, group.messageIndices, group.orphan])).toEqual(expected);
    groups.forEach((group, index) => expect(group.index).toBe(index));
  });

  it('carries counts, characters, tokens and call ids', () => {
    const messages = [calls('a', 'b'), results('a', 'b')];
    const [group] = groupMessages(messages);
    expect(group).toMatchObject({ messageCount: 2, callIds: ['a', 'b'], messages });
    expect(group!.chars).toBe(messageChars(messages[0]!) + messageChars(messages[1]!));
    expect(group!.tokens).toBe(estimateTokens(messages[0]!) + estimateTokens(messages[1]!));
  });

  it('counts with the given counter, from its cache on the second call', () => {
    const counter = createTokenCounter();
    const messages = [user(), calls('a'), results('a')];
    groupMessages(messages, { counter });
    groupMessages(messages, { counter });
    expect(counter.stats).toEqual({ hits: 3, misses: 3 });
  });

  it('keeps a reasoning-only assistant message with the tool call that follows it (one atom)', () => {
    const thinking = message('assistant', [reasoning()]);
    const calling = message('assistant', [call('r1')]);
    const answer = message('tool', [result('r1')]);
    const groups = groupMessages([user(), thinking, calling, answer, message('assistant', [reasoning(), text('')])]);
    expect(groups.map((group) => [group.kind, group.messageCount])).toEqual([
      ['user', 1],
      ['tool_call', 3],
      ['assistant_text', 1],
    ]);
    expect(groups[1]!.orphan).toBe(false);
  });

  it('returns no groups for no messages', () => {
    expect(groupMessages([])).toEqual([]);
  });
});

/** A conversation where every result directly follows its call. */
const adjacentConversation = fc
  .array(
    fc.oneof(
      fc.constant('user'),
      fc.constant('assistant'),
      fc.constant('system'),
      fc.constant('summary'),
      fc.integer({ min: 1, max: 3 }),
      fc.integer({ min: -3, max: -1 }),
    ),
    { maxLength: 40 },
  )
  .map((steps) => {
    const messages: Message[] = [];
    let callNumber = 0;
    for (const step of steps) {
      if (step === 'user') messages.push(user());
      else if (step === 'assistant') messages.push(assistant());
      else if (step === 'system') messages.push(system());
      else if (step === 'summary') messages.push(summary());
      else {
        const ids = Array.from({ length: Math.abs(step) }, () => `c${++callNumber}`);
        messages.push(calls(...ids));
        if (step > 0) messages.push(results(...ids));
        else for (const id of ids) messages.push(message('tool', [result(id)]));
      }
    }
    return messages;
  });

describe('groupMessages properties', () => {
  it('gives back the original order when results are adjacent', () => {
    fc.assert(
      fc.property(adjacentConversation, (messages) => {
        const groups = groupMessages(messages);
        expect(groups.flatMap((group) => group.messages)).toEqual(messages);
        expect(groups.every((group) => !group.orphan)).toBe(true);
      }),
    );
  });

  it('places every message in exactly one group, groups ordered by first index', () => {
    const shuffled = adjacentConversation.chain((messages) =>
      fc.shuffledSubarray(messages, { minLength: messages.length, maxLength: messages.length }),
    );
    fc.assert(
      fc.property(shuffled, (messages) => {
        const groups = groupMessages(messages);
        const indices = groups.flatMap((group) => group.messageIndices).sort((left, right) => left - right);
        expect(indices).toEqual(messages.map((_, index) => index));
        const firsts = groups.map((group) => group.messageIndices[0]!);
        expect(firsts).toEqual([...firsts].sort((left, right) => left - right));
        for (const group of groups)
          expect(group.messageIndices).toEqual([...group.messageIndices].sort((left, right) => left - right));
      }),
    );
  });

  it('links results to their call across interleaved messages, without orphans', () => {
    const interleaved = fc
      .array(fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 2 })), { maxLength: 15 })
      .map((turns) => {
        const messages: Message[] = [];
        let callNumber = 0;
        for (const [callCount, between] of turns) {
          const ids = Array.from({ length: callCount }, () => `c${++callNumber}`);
          messages.push(calls(...ids));
          for (let index = 0; index < between; index++) messages.push(user('approve?'));
          for (const id of ids) messages.push(results(id));
        }
        return messages;
      });
    fc.assert(
      fc.property(interleaved, (messages) => {
        const groups = groupMessages(messages);
        for (const group of groups) {
          expect(group.orphan).toBe(false);
          const answered = group.messages.flatMap((member) =>
            member.parts.flatMap((part) => (part.type === 'tool-result' ? [part.callId] : [])),
          );
          expect(answered.sort()).toEqual([...group.callIds].sort());
        }
        expect(groups.filter((group) => group.kind === 'tool_call').length).toBe(
          messages.filter((member) => member.role === 'assistant').length,
        );
      }),
    );
  });
});
