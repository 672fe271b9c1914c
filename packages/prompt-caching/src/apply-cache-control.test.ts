import { describe, expect, it } from 'vitest';
import { applyCacheControl, countMarkers } from './apply-cache-control.js';
import type { CacheableRequest, WireMessage } from './cacheable-request.js';
import { CacheTtlError } from './errors.js';

const EPHEMERAL = { type: 'ephemeral' } as const;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** A request whose last non-system message is `last`, preceded by a system prompt. */
function requestEndingWith(last: WireMessage, native = false): { request: CacheableRequest; native: boolean } {
  return { request: { messages: [{ role: 'system', content: 'You are terse.' }, last] }, native };
}

describe('applyCacheControl: where the marker goes, by content type', () => {
  const cases: { name: string; message: WireMessage; native?: boolean; expected: WireMessage }[] = [
    {
      name: 'string content becomes one text block carrying the marker',
      message: { role: 'user', content: 'hello' },
      expected: { role: 'user', content: [{ type: 'text', text: 'hello', cache_control: EPHEMERAL }] },
    },
    {
      name: 'list content: the last block',
      message: {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'image', source: { type: 'url', url: 'u' } },
        ],
      },
      expected: {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'image', source: { type: 'url', url: 'u' }, cache_control: EPHEMERAL },
        ],
      },
    },
    {
      name: 'list content ending in thinking: the last block that is not thinking',
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'a' },
          { type: 'thinking', thinking: 't', signature: 's' },
        ],
      },
      expected: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'a', cache_control: EPHEMERAL },
          { type: 'thinking', thinking: 't', signature: 's' },
        ],
      },
    },
    {
      name: 'empty string content: on the message',
      message: { role: 'assistant', content: '' },
      expected: { role: 'assistant', content: '', cache_control: EPHEMERAL },
    },
    {
      name: 'null content: on the message',
      message: { role: 'assistant', content: null },
      expected: { role: 'assistant', content: null, cache_control: EPHEMERAL },
    },
    {
      name: 'empty list: on the message',
      message: { role: 'user', content: [] },
      expected: { role: 'user', content: [], cache_control: EPHEMERAL },
    },
    {
      name: 'tool message, native Anthropic: on the message',
      message: { role: 'tool', tool_call_id: 'c1', content: 'ok' },
      native: true,
      expected: { role: 'tool', tool_call_id: 'c1', content: 'ok', cache_control: EPHEMERAL },
    },
    {
      name: 'tool message via a gateway: no marker',
      message: { role: 'tool', tool_call_id: 'c1', content: 'ok' },
      native: false,
      expected: { role: 'tool', tool_call_id: 'c1', content: 'ok' },
    },
  ];

  it.each(cases)('$name', ({ message, native, expected }) => {
    const { request } = requestEndingWith(message);
    const result = applyCacheControl(request, { native: native ?? false });
    expect(result.messages[1]).toEqual(expected);
    expect(result.messages[0]).toEqual({
      role: 'system',
      content: [{ type: 'text', text: 'You are terse.', cache_control: EPHEMERAL }],
    });
  });
});

function conversation(turns: number): WireMessage[] {
  return Array.from({ length: turns }, (_, index): WireMessage => ({
    role: index % 2 === 0 ? 'user' : 'assistant',
    content: `turn ${index}`,
  }));
}

function markedIndexes(request: CacheableRequest): number[] {
  return request.messages.flatMap((message, index) => (countMarkers({ messages: [message] }) > 0 ? [index] : []));
}

describe('applyCacheControl: system_and_3', () => {
  it('marks the system param and the last three messages, four in all', () => {
    const result = applyCacheControl({
      system: 'sys',
      messages: conversation(6),
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
    });
    expect(result.system).toEqual([{ type: 'text', text: 'sys', cache_control: EPHEMERAL }]);
    expect(markedIndexes(result)).toEqual([3, 4, 5]);
    expect(countMarkers(result)).toBe(4);
    expect(result.model).toBe('claude-sonnet-4-5');
  });

  it('without a system prompt marks the first message and the last three: four breakpoints either way', () => {
    const result = applyCacheControl({ messages: conversation(5) });
    expect(markedIndexes(result)).toEqual([0, 2, 3, 4]);
    expect(countMarkers(result)).toBe(4);
  });

  it('with fewer messages than three marks each one', () => {
    const result = applyCacheControl({
      system: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ],
      messages: conversation(2),
    });
    expect(result.system).toEqual([
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b', cache_control: EPHEMERAL },
    ]);
    expect(markedIndexes(result)).toEqual([0, 1]);
  });

  it('counts markers already on tools against the limit and keeps the system and the latest messages first', () => {
    const request: CacheableRequest = {
      tools: [{ name: 'read', cache_control: EPHEMERAL }],
      system: 'sys',
      messages: conversation(6),
    };
    const result = applyCacheControl(request);
    expect(countMarkers(result)).toBe(4);
    expect(result.system).toEqual([{ type: 'text', text: 'sys', cache_control: EPHEMERAL }]);
    expect(markedIndexes(result)).toEqual([4, 5]);
  });

  it('does not mark a target again that already carries a marker, and never exceeds four', () => {
    const messages = conversation(6);
    messages[4] = { role: 'user', content: [{ type: 'text', text: 'turn 4', cache_control: EPHEMERAL }] };
    messages[0] = { role: 'user', content: [{ type: 'text', text: 'turn 0', cache_control: EPHEMERAL }] };
    const result = applyCacheControl({ system: 'sys', messages });
    expect(countMarkers(result)).toBe(4);
    expect(markedIndexes(result)).toEqual([0, 4, 5]);
    expect(result.messages[4]).toEqual(messages[4]);
  });

  it('adds nothing when four markers are already present', () => {
    const marked = (text: string): WireMessage => ({
      role: 'user',
      content: [{ type: 'text', text, cache_control: EPHEMERAL }],
    });
    const request: CacheableRequest = {
      system: 'sys',
      messages: [marked('a'), marked('b'), marked('c'), marked('d'), { role: 'user', content: 'e' }],
    };
    const result = applyCacheControl(request);
    expect(countMarkers(result)).toBe(4);
    expect(result.system).toBe('sys');
    expect(result.messages[4]).toEqual({ role: 'user', content: 'e' });
  });

  it('treats an OpenAI-format system message at the head as the system prompt (Hermes)', () => {
    const result = applyCacheControl({ messages: [{ role: 'system', content: 'sys' }, ...conversation(5)] });
    expect(markedIndexes(result)).toEqual([0, 3, 4, 5]);
  });

  it('never changes its input (deeply frozen) and shares nothing with it', () => {
    const request = deepFreeze<CacheableRequest>({
      system: 'sys',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }] }],
    });
    const snapshot = structuredClone(request);
    const result = applyCacheControl(request, { ttl: '1h' });
    expect(request).toEqual(snapshot);
    expect(result.messages[0]).not.toBe(request.messages[0]);
    expect(countMarkers(result)).toBe(2);
  });

  it('writes the 1-hour TTL into every marker it adds', () => {
    const result = applyCacheControl({ system: 'sys', messages: conversation(3) }, { ttl: '1h' });
    expect(result.system).toEqual([{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral', ttl: '1h' } }]);
    expect(result.messages[2]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'turn 2', cache_control: { type: 'ephemeral', ttl: '1h' } }],
    });
  });

  it('rejects a TTL other than 5m or 1h with a CacheTtlError', () => {
    const bad = { ttl: '10m' } as unknown as { ttl: '5m' };
    expect(() => applyCacheControl({ messages: conversation(1) }, bad)).toThrow(CacheTtlError);
    expect(() => applyCacheControl({ messages: conversation(1) }, bad)).toThrow(/"10m"/);
  });
});
