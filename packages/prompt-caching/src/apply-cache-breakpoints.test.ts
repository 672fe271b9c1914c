import type { Message, Part } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { applyCacheBreakpoints, countCacheBreakpoints } from './apply-cache-breakpoints.js';

const EPHEMERAL = { type: 'ephemeral' } as const;

function text(id: string, value: string, extra: Partial<Part> = {}): Part {
  return { id, type: 'text', text: value, ...extra } as Part;
}

function message(id: string, role: Message['role'], parts: Part[]): Message {
  return { id, role, parts };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

function markedParts(messages: readonly Message[]): string[] {
  return messages.flatMap((entry) =>
    entry.parts.filter((part) => part.cacheControl !== undefined).map((part) => part.id),
  );
}

function chat(turns: number): Message[] {
  return Array.from({ length: turns }, (_, index) =>
    message(`m${index}`, index % 2 === 0 ? 'user' : 'assistant', [text(`p${index}`, `turn ${index}`)]),
  );
}

describe('applyCacheBreakpoints (ctxhost messages)', () => {
  it('marks the system prompt and the last three non-system messages', () => {
    const messages = [message('s', 'system', [text('sys', 'be terse')]), ...chat(6)];
    const result = applyCacheBreakpoints(messages);
    expect(markedParts(result)).toEqual(['sys', 'p3', 'p4', 'p5']);
    expect(result[6]?.parts[0]?.cacheControl).toEqual(EPHEMERAL);
  });

  it('without a system message places four breakpoints too: the first message and the last three', () => {
    expect(markedParts(applyCacheBreakpoints(chat(6)))).toEqual(['p0', 'p3', 'p4', 'p5']);
    expect(markedParts(applyCacheBreakpoints(chat(3)))).toEqual(['p0', 'p1', 'p2']);
  });

  it('marks the last system message of the head run, on its last part', () => {
    const messages = [
      message('s1', 'system', [text('a', 'one')]),
      message('s2', 'system', [text('b', 'two'), text('c', 'three')]),
      ...chat(1),
    ];
    expect(markedParts(applyCacheBreakpoints(messages))).toEqual(['c', 'p0']);
  });

  it('skips reasoning parts and messages that cannot carry a marker', () => {
    const messages: Message[] = [
      ...chat(3),
      message('a', 'assistant', [
        { id: 'said', type: 'text', text: 'here' },
        { id: 'call', type: 'tool-call', callId: 'c1', name: 'read', input: {} },
        { id: 'think', type: 'reasoning', text: 'hmm', signature: 'sig' },
      ]),
      message('t', 'tool', [{ id: 'result', type: 'tool-result', callId: 'c1', output: 'file' }]),
      message('r', 'assistant', [{ id: 'only-thinking', type: 'reasoning', text: 'x' }]),
    ];
    expect(markedParts(applyCacheBreakpoints(messages))).toEqual(['p0', 'p2', 'call', 'result']);
  });

  it('counts parts already marked against the limit of four and does not mark their message again', () => {
    const messages = [message('s', 'system', [text('sys', 'be terse')]), ...chat(6)];
    messages[1] = message('m0', 'user', [text('p0', 'turn 0', { cacheControl: EPHEMERAL })]);
    messages[6] = message('m5', 'assistant', [text('p5', 'turn 5', { cacheControl: EPHEMERAL })]);
    const result = applyCacheBreakpoints(messages);
    expect(countCacheBreakpoints(result)).toBe(4);
    expect(markedParts(result)).toEqual(['sys', 'p0', 'p4', 'p5']);
  });

  it('adds nothing when four parts are already marked', () => {
    const messages = chat(5).map((entry, index) =>
      index < 4 ? { ...entry, parts: entry.parts.map((part) => ({ ...part, cacheControl: EPHEMERAL })) } : entry,
    );
    expect(markedParts(applyCacheBreakpoints(messages))).toEqual(['p0', 'p1', 'p2', 'p3']);
  });

  it('never changes its input, copies only the messages it marks, and writes the TTL', () => {
    const messages = deepFreeze([message('s', 'system', [text('sys', 'be terse')]), ...chat(5)]);
    const snapshot = structuredClone(messages);
    const result = applyCacheBreakpoints(messages, { ttl: '1h' });
    expect(messages).toEqual(snapshot);
    expect(result[1]).toBe(messages[1]);
    expect(result[5]).not.toBe(messages[5]);
    expect(result[5]?.parts[0]?.cacheControl).toEqual({ type: 'ephemeral', ttl: '1h' });
  });

  it('returns an empty list for an empty list', () => {
    expect(applyCacheBreakpoints([])).toEqual([]);
  });
});
