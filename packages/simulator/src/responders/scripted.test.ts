import { describe, expect, it } from 'vitest';
import type { MessagesRequest } from '../wire/wire.js';
import { createTurnQueue } from './scripted.js';

const request = (tools: number): MessagesRequest => ({
  model: 'claude-sonnet-4-5',
  max_tokens: 100,
  messages: [{ role: 'user', content: 'hi' }],
  ...(tools === 0 ? {} : { tools: [{ name: 'bash', input_schema: { type: 'object' } }] }),
});

describe('the turn queue', () => {
  it('answers in order, and a turn with `when` only a request it accepts, keeping its place', () => {
    const withTools = (r: MessagesRequest) => (r.tools ?? []).length > 0;
    const queue = createTurnQueue();
    queue.script({ content: [], when: withTools }, { content: 'second', when: withTools });
    expect(queue.next(request(0))).toBeUndefined();
    expect(queue.next(request(1))?.content).toEqual([]);
    expect(queue.next(request(0))).toBeUndefined();
    expect(queue.next(request(1))?.content).toEqual([{ type: 'text', text: 'second' }]);
    expect(queue.pending).toBe(0);
  });

  it('a turn without `when` answers whatever comes next', () => {
    const queue = createTurnQueue();
    queue.script('first');
    expect(queue.next(request(0))?.content).toEqual([{ type: 'text', text: 'first' }]);
  });
});
