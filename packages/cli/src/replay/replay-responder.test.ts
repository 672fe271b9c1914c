import Anthropic from '@anthropic-ai/sdk';
import { startSimulator } from '@ctxhost/simulator';
import { describe, expect, it } from 'vitest';
import { NOTICE_PREFIX } from 'ctxhost';
import { resultKey } from './replay-plan.js';
import { createReplayResponder, requestKey } from './replay-responder.js';

describe('requestKey', () => {
  it('keys a request by its last message: tool result ids or the user text', () => {
    const base = { model: 'm', max_tokens: 10 };
    expect(requestKey({ ...base, messages: [{ role: 'user', content: ' hi ' }] })).toBe('user:hi');
    expect(
      requestKey({
        ...base,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'b', content: 'x' },
              { type: 'tool_result', tool_use_id: 'a', content: 'y' },
            ],
          },
        ],
      }),
    ).toBe(resultKey(['a', 'b']));
    expect(
      requestKey({
        ...base,
        messages: [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: 'a' },
        ],
      }),
    ).toBeUndefined();
  });

  it('skips ctxhost’s own preemptive notice after the results or the question it follows', () => {
    const base = { model: 'm', max_tokens: 10 };
    const notice = `${NOTICE_PREFIX} High context usage: 82% of this model's 12,500-token context window is in use.`;
    const results = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'y' }] };
    expect(requestKey({ ...base, messages: [results, { role: 'user', content: notice }] })).toBe(resultKey(['a']));
    expect(
      requestKey({
        ...base,
        messages: [{ role: 'user', content: [...results.content, { type: 'text', text: notice }] }],
      }),
    ).toBe(resultKey(['a']));
    expect(
      requestKey({
        ...base,
        messages: [
          { role: 'user', content: 'q' },
          { role: 'user', content: [{ type: 'text', text: notice }] },
        ],
      }),
    ).toBe('user:q');
  });
});

describe('createReplayResponder over the simulator and the SDK', () => {
  it('answers the recorded turn for a request whatever order requests come in, again when asked again, and leaves others to the default responder', async () => {
    const turns = new Map([
      [
        'user:first',
        [
          {
            sessionId: 's',
            content: [{ type: 'tool_use', id: 'c1', name: 'bash', input: { command: 'ls' } }],
            callIds: ['c1'],
          },
        ],
      ],
      ['user:second', [{ sessionId: 's', content: [{ type: 'text', text: 'recorded answer' }], callIds: [] }]],
    ]);
    const responder = createReplayResponder(turns);
    const simulator = await startSimulator({ features: [responder.feature] });
    try {
      const client = new Anthropic({ apiKey: 'test', baseURL: simulator.url, maxRetries: 0 });
      const ask = (text: string) =>
        client.messages.create({
          model: 'claude-sonnet-4-6',
          max_tokens: 100,
          messages: [{ role: 'user', content: text }],
        });
      const second = await ask('second');
      const unknown = await ask('something else');
      const first = await ask('first');
      expect(second.content).toEqual([{ type: 'text', text: 'recorded answer' }]);
      expect(unknown.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^Simulated reply about/) });
      expect(first.stop_reason).toBe('tool_use');
      expect(responder.answered).toBe(2);
      expect(responder.repeated).toBe(0);
      expect((await ask('second')).content).toEqual([{ type: 'text', text: 'recorded answer' }]);
      expect(responder.repeated).toBe(1);
      expect(responder.takeCallId('s')).toBe('c1');
      expect(responder.takeCallId('s')).toBeUndefined();
    } finally {
      await simulator.close();
    }
  });
});
