import { describe, expect, it } from 'vitest';
import { findTooDeep } from './json-depth.js';
import type { JsonValue } from './message.js';
import { MessageValidationError, validateMessage, validateMessages } from './validate-messages.js';

const ok = { id: 'm0', role: 'user', parts: [{ id: 'p0', type: 'text', text: 'hi' }] };

describe('validateMessages', () => {
  it('accepts valid messages', () => {
    expect(validateMessages([ok])).toEqual([ok]);
  });

  it.each([
    [
      { id: 'm1', role: 'user', parts: [{ id: 'p', type: 'video' }] },
      'messages[1].parts[0].type: expected a known type, got "video"',
    ],
    [
      { id: 'm1', role: 'assistant', parts: [{ id: 'p', type: 'tool-call', name: 'ls', input: {} }] },
      'messages[1].parts[0].callId: expected a string, got nothing',
    ],
    [
      { id: 'm1', role: 'user', parts: [{ id: 'p', type: 'text', text: 42 }] },
      'messages[1].parts[0].text: expected a string, got 42',
    ],
    [{ id: '', role: 'user', parts: [] }, 'messages[1].id: expected a non-empty string, got ""'],
  ])('names the message index and the field: %j', (bad, problem) => {
    try {
      validateMessages([ok, bad]);
      expect.unreachable();
    } catch (error) {
      expect(MessageValidationError.isInstance(error)).toBe(true);
      expect((error as MessageValidationError).problems).toContain(problem);
    }
  });

  it('reports every problem at once, never a bare TypeError', () => {
    expect(() => validateMessages('nope')).toThrow(/expected a list of messages, got "nope"/);
    const error = (() => {
      try {
        validateMessages([{ id: 'a' }, null]);
      } catch (caught) {
        return caught as MessageValidationError;
      }
    })();
    expect(error?.problems.length).toBeGreaterThanOrEqual(3);
  });

  it('refuses a tool input nested past MAX_JSON_DEPTH with a message naming where, instead of overflowing the stack', () => {
    let input: JsonValue = 1;
    for (let level = 0; level < 100_000; level++) input = { a: input };
    const message = {
      id: 'm1',
      role: 'assistant',
      parts: [{ id: 'p1', type: 'tool-call', callId: 'c1', name: 'deep', input }],
    };
    expect(() => validateMessages([message])).toThrow(
      /messages\[0\] nests more than 256 levels deep at parts\.0\.input\.a\.a/,
    );
    expect(() => validateMessage(message)).toThrow(MessageValidationError);
    expect(findTooDeep({ a: [{ b: 1 }] }, 3)).toBeUndefined();
    expect(findTooDeep({ a: [{ b: {} }] }, 3)).toBe('a.0.b');
  });
});
