import {
  createCompactionPlugin,
  slidingWindow,
  toolResultCompaction,
  triggers,
  truncation,
  validateProjection,
} from '@ctxhost/compaction';
import { createHost, type CompactionCompletedEvent, type Message } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';

function conversation(turns: number): Message[] {
  const messages: Message[] = [
    { id: 'sys', role: 'system', parts: [{ id: 'sys:0', type: 'text', text: 'You are helpful.' }] },
  ];
  for (let turn = 1; turn <= turns; turn++) {
    messages.push(
      { id: `u${turn}`, role: 'user', parts: [{ id: `u${turn}:0`, type: 'text', text: `question ${turn}` }] },
      {
        id: `c${turn}`,
        role: 'assistant',
        parts: [
          { id: `c${turn}:0`, type: 'tool-call', callId: `call${turn}`, name: 'get_weather', input: { city: 'Oslo' } },
        ],
      },
      {
        id: `r${turn}`,
        role: 'user',
        parts: [
          {
            id: `r${turn}:0`,
            type: 'tool-result',
            callId: `call${turn}`,
            output: `sunny, 18°C\n${'detail '.repeat(80)}`,
          },
        ],
      },
      { id: `a${turn}`, role: 'assistant', parts: [{ id: `a${turn}:0`, type: 'text', text: `answer ${turn}` }] },
    );
  }
  return messages;
}

describe('createCompactionPlugin with a real host', () => {
  it('before: compacts the outgoing request at the engine stage and leaves the session alone', async () => {
    const plugin = createCompactionPlugin({ before: slidingWindow({ keepLastTurns: 2 }) });
    const host = createHost({ enginePlugin: false, plugins: [plugin] });
    const session = await host.session('s1');
    for (const message of conversation(5)) await session.append(message);
    const request = { sessionId: 's1', model: 'test', messages: [...session.messages()], maxTokens: 100 };
    const sent = await host.hooks.beforeRequest.promise(request, { sessionId: 's1', contextWindow: undefined });
    expect(sent.messages.map((message) => message.id)).toEqual(['sys', 'u4', 'c4', 'r4', 'a4', 'u5', 'c5', 'r5', 'a5']);
    expect(validateProjection(sent.messages)).toEqual([]);
    expect(session.messages()).toHaveLength(21);
    expect(host.plugins).toContain('compaction');
    await host.dispose();
  });

  it('before: returns the very request when nothing fires', async () => {
    const host = createHost({
      enginePlugin: false,
      plugins: [createCompactionPlugin({ before: truncation({ trigger: triggers.never }) })],
    });
    const request = { sessionId: 's2', model: 'test', messages: conversation(1), maxTokens: 100 };
    expect(await host.hooks.beforeRequest.promise(request, { sessionId: 's2', contextWindow: undefined })).toBe(
      request,
    );
    await host.dispose();
  });

  it('after: on session.idle compacts the persisted projection, keeps the history, reports compaction.completed', async () => {
    const host = createHost({
      enginePlugin: false,
      plugins: [createCompactionPlugin({ after: toolResultCompaction({ keepLastToolCallGroups: 1 }) })],
    });
    const completed: CompactionCompletedEvent[] = [];
    host.hooks.compactionCompleted.tapPromise('test', async (event) => {
      completed.push(event);
    });
    const session = await host.session('s3');
    for (const message of conversation(3)) await session.append(message);
    const before = host.counter.countAll(session.messages());
    await host.emit('session.idle', { sessionId: 's3' });
    const projection = session.messages();
    expect(projection.map((message) => message.id)).toEqual([
      'sys',
      'u1',
      'c1:tool-results',
      'a1',
      'u2',
      'c2:tool-results',
      'a2',
      'u3',
      'c3',
      'r3',
      'a3',
    ]);
    expect(host.counter.countAll(projection)).toBeLessThan(before);
    expect(session.history()).toHaveLength(13);
    expect(completed).toHaveLength(1);
    expect(completed[0]!.report).toMatchObject({
      engine: 'toolResultCompaction',
      prunedToolOutputs: 2,
      messagesBefore: 13,
      messagesAfter: 11,
    });
    await host.emit('session.idle', { sessionId: 's3' });
    expect(completed).toHaveLength(1);
    await host.dispose();
  });
});
