import type { Message } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { createConversation } from './conversation.test-helper.js';
import { validateProjection, type ProjectionProblemCode } from './validate-projection.js';

const c = createConversation();
const empty = (role: Message['role']): Message => ({ id: `e-${role}`, role, parts: [] });

describe('validateProjection', () => {
  it.each<[string, Message[], [ProjectionProblemCode, number][]]>([
    [
      'a valid exchange',
      [c.system(), c.user(), c.calls(['a', '1'], ['b', '2']), c.results(['1', 'x'], ['2', 'y']), c.assistant()],
      [],
    ],
    [
      'results split over two messages',
      [c.user(), c.calls(['a', '3'], ['b', '4']), c.results(['3', 'x']), c.results(['4', 'y'])],
      [],
    ],
    ['only system messages', [c.system()], [['empty_projection', 0]]],
    ['opens with the assistant', [c.system(), c.assistant(), c.user()], [['first_not_user', 1]]],
    ['an empty user message', [c.user(), empty('user'), c.assistant()], [['empty_content', 1]]],
    ['a final empty assistant is allowed', [c.user(), empty('assistant')], []],
    ['a blank text part', [c.user(' \n'), c.assistant()], [['empty_content', 0]]],
    ['a result without its call', [c.user(), c.results(['zz', 'x'])], [['orphan_result', 1]]],
    [
      'a result after another assistant message',
      [c.user(), c.calls(['a', '5']), c.assistant(), c.results(['5', 'x'])],
      [
        ['unanswered_call', 1],
        ['orphan_result', 3],
      ],
    ],
    [
      'a call never answered',
      [c.user(), c.calls(['a', '6'], ['b', '7']), c.results(['6', 'x'])],
      [['unanswered_call', 1]],
    ],
  ])('%s', (_name, messages, expected) => {
    expect(validateProjection(messages).map((problem) => [problem.code, problem.index])).toEqual(expected);
  });

  it('names the call id and the message index', () => {
    const [problem] = validateProjection([c.user(), c.results(['lost', 'x'])]);
    expect(problem).toMatchObject({
      callId: 'lost',
      message: 'messages.1: tool result lost answers no call of the assistant message before it',
    });
  });
});
