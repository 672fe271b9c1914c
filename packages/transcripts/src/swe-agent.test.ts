import { describe, expect, it } from 'vitest';
import { parseTranscript } from './parse-transcript.js';

function trajectory(history: unknown[]): string {
  return JSON.stringify({ environment: 'main', trajectory: [], info: { exit_status: 'submitted' }, history });
}

const call = (id: string, command: string) => ({
  id,
  type: 'function',
  function: { name: 'bash', arguments: JSON.stringify({ command }) },
});

describe('SWE-agent', () => {
  it('converts the OpenAI-style history and renames reused call ids', () => {
    const transcript = parseTranscript(
      trajectory([
        { role: 'system', content: 'You are SWE-agent.' },
        { role: 'user', content: 'demo', is_demo: true },
        { role: 'assistant', content: 'run it', tool_calls: [call('c1', 'ls')] },
        { role: 'tool', content: 'a.py', tool_call_ids: ['c1'] },
        { role: 'assistant', content: 'again', tool_calls: [call('c1', 'ls -a')] },
        { role: 'tool', content: '.git a.py', tool_call_ids: ['c1'] },
      ]),
    );
    expect(transcript.format).toBe('swe-agent');
    const pairs = transcript.messages.flatMap((message) =>
      message.parts
        .filter((part) => part.type === 'tool-call' || part.type === 'tool-result')
        .map((part) => [part.type, 'callId' in part ? part.callId : '']),
    );
    expect(pairs).toEqual([
      ['tool-call', 'c1'],
      ['tool-result', 'c1'],
      ['tool-call', 'c1#2'],
      ['tool-result', 'c1#2'],
    ]);
    expect(transcript.messages[1]!.meta).toEqual({ isDemo: true });
    expect(transcript.meta).toMatchObject({ renamedCallIds: 1, demoMessages: 1, exitStatus: 'submitted' });
  });

  it.each([
    [
      'an unknown role',
      { role: 'robot', content: 'x' },
      /history\[0\]: role must be one of system, user, assistant, tool, got "robot"/,
    ],
    [
      'arguments that are not JSON',
      { role: 'assistant', content: '', tool_calls: [{ id: 'c1', function: { name: 'bash', arguments: '{oops' } }] },
      /history\[0\]: tool call c1: arguments are not valid JSON/,
    ],
    ['non-string content', { role: 'user', content: 42 }, /history\[0\]: content is number/],
  ])('rejects %s, or skips it with skipInvalid', (_name, entry, pattern) => {
    expect(() => parseTranscript(trajectory([entry]), { file: 't.traj' })).toThrow(pattern);
    expect(parseTranscript(trajectory([entry, { role: 'user', content: 'ok' }]), { skipInvalid: true })).toMatchObject({
      skipped: 1,
      messages: [{ id: 'swe-1' }],
    });
  });
});

describe('SWE-agent observations (non-function-calling runs)', () => {
  const traj = JSON.stringify({
    history: [
      { role: 'system', content: 'You are an autonomous programmer.' },
      { role: 'user', content: 'Fix the bug.' },
      { role: 'assistant', content: 'Let me look.\n```\nls -a\n```', action: 'ls -a\n' },
      { role: 'user', content: 'setup.py\nsrc', message_type: 'observation' },
      { role: 'assistant', content: 'Done.\n```\nsubmit\n```', action: 'submit' },
    ],
  });

  it('makes the action a tool call and its observation the tool result, so pruning and truncation apply to it', () => {
    const { messages } = parseTranscript(traj);
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    expect(messages[2]?.parts).toEqual([
      { id: 'swe-2.0', type: 'text', text: 'Let me look.' },
      { id: 'swe-2.action', type: 'tool-call', callId: 'swe-2.action', name: 'ls', input: { command: 'ls -a' } },
    ]);
    expect(messages[3]?.parts).toEqual([
      { id: 'swe-3.result', type: 'tool-result', callId: 'swe-2.action', output: 'setup.py\nsrc' },
    ]);
    // The last action has no observation: it stays text, not a call left unanswered.
    expect(messages[4]?.parts).toEqual([{ id: 'swe-4.0', type: 'text', text: 'Done.\n```\nsubmit\n```' }]);
  });
});
