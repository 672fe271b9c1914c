import { createMessage, type Message } from '@ctxhost/core';
import { describe, expect, it } from 'vitest';
import { buildReplayPlan, keyOfMessage, resultKey } from './replay-plan.js';

const user = (text: string, meta?: Message['meta']) =>
  createMessage('user', [{ type: 'text', text }], meta === undefined ? {} : { meta });
const call = (callId: string, name: string, input: Record<string, string>, meta?: Message['meta']) =>
  createMessage('assistant', [{ type: 'tool-call', callId, name, input }], meta === undefined ? {} : { meta });
const result = (callId: string, output: string, meta?: Message['meta']) =>
  createMessage('tool', [{ type: 'tool-result', callId, output }], meta === undefined ? {} : { meta });
const say = (text: string, meta?: Message['meta']) =>
  createMessage('assistant', [{ type: 'text', text }], meta === undefined ? {} : { meta });

describe('buildReplayPlan', () => {
  it('keys each assistant turn by what preceded it and keeps tool outputs by call id', () => {
    const plan = buildReplayPlan([
      user('list files'),
      call('c1', 'bash', { command: 'ls' }),
      result('c1', 'a.ts\nb.ts'),
      say('Two files.'),
      user('thanks'),
    ]);
    // 'thanks' has no recorded answer and nothing after it: no call replays it.
    expect(plan.main.userTurns.map((turn) => turn.parts)).toEqual([[expect.objectContaining({ text: 'list files' })]]);
    expect(plan.userTurnsLeftOut).toBe(1);
    expect([...plan.answeredCalls]).toEqual(['c1']);
    expect(plan.turns.get('user:list files')?.[0]).toMatchObject({
      sessionId: 'replay',
      callIds: ['c1'],
      content: [{ type: 'tool_use', id: 'c1', name: 'bash', input: { command: 'ls' } }],
    });
    expect(plan.turns.get(resultKey(['c1']))?.[0]?.content).toEqual([{ type: 'text', text: 'Two files.' }]);
    expect(plan.outputs.get('c1')).toEqual({ output: 'a.ts\nb.ts', isError: false });
    expect(plan.tools.map((tool) => tool.name)).toEqual(['bash']);
    expect(plan.assistantTurns).toBe(2);
  });

  it('merges consecutive assistant messages into one turn and consecutive user texts into one message', () => {
    const plan = buildReplayPlan([
      user('first'),
      user('second'),
      say('thinking aloud'),
      call('c1', 'read', { path: 'x' }),
      result('c1', 'x'),
    ]);
    expect(plan.main.userTurns).toHaveLength(1);
    expect(plan.main.userTurns[0]!.parts).toHaveLength(2);
    expect(plan.turns.get('user:second')?.[0]?.content.map((block) => block.type)).toEqual(['text', 'tool_use']);
    expect(plan.assistantTurns).toBe(1);
  });

  it('attaches a sidechain to the Task call whose prompt started it', () => {
    const side = { sidechain: true, thread: 'agent-1' };
    const plan = buildReplayPlan([
      user('explore'),
      call('task1', 'Task', { prompt: 'look around' }),
      user('look around', side),
      call('s1', 'ls', { path: '.' }, side),
      result('s1', 'src', side),
      say('found src', side),
      result('task1', 'the subagent found src'),
      say('done'),
    ]);
    const [thread] = plan.subagents.get('task1') ?? [];
    expect(thread?.sessionId).toBe('replay/subagent-1');
    expect(thread?.userTurns).toHaveLength(1);
    expect(plan.turns.get('user:look around')?.[0]?.sessionId).toBe('replay/subagent-1');
    expect(plan.turns.get(resultKey(['s1']))?.[0]?.content).toEqual([{ type: 'text', text: 'found src' }]);
    expect(plan.outputs.get('task1')?.output).toBe('the subagent found src');
    expect(plan.assistantTurns).toBe(4);
  });
});

describe('keyOfMessage', () => {
  it('keys tool results by the set of their call ids, in any order', () => {
    const results = createMessage('tool', [
      { type: 'tool-result', callId: 'b', output: '1' },
      { type: 'tool-result', callId: 'a', output: '2' },
    ]);
    expect(keyOfMessage(results)).toBe(resultKey(['a', 'b']));
    expect(keyOfMessage(user('  hello  '))).toBe('user:hello');
    expect(keyOfMessage(call('c1', 'bash', {}))).toBeUndefined();
  });
});

describe('the system prompt', () => {
  it('is kept from the transcript for the replayed sessions', () => {
    const plan = buildReplayPlan([
      createMessage('system', [{ type: 'text', text: 'You are a careful engineer.' }]),
      user('go'),
      say('ok'),
    ]);
    expect(plan.system).toBe('You are a careful engineer.');
    expect(buildReplayPlan([user('go'), say('ok')]).system).toBeUndefined();
  });
});

describe('recorded output tokens', () => {
  it('are kept on each turn, summed over the messages one turn spans, and dropped when one of them has none', () => {
    const messages = [user('go'), say('a'), say('b'), user('again'), say('c'), say('d'), user('last'), say('e')];
    const plan = buildReplayPlan(messages, 'replay', {
      outputTokens: new Map([
        [1, 10],
        [2, 5],
        [4, 7],
        [7, 3],
      ]),
    });
    expect(plan.turns.get('user:go')?.[0]?.outputTokens).toBe(15);
    expect(plan.turns.get('user:again')?.[0]).not.toHaveProperty('outputTokens');
    expect(plan.turns.get('user:last')?.[0]?.outputTokens).toBe(3);
    expect(buildReplayPlan(messages).turns.get('user:go')?.[0]).not.toHaveProperty('outputTokens');
  });
});
