import { describe, expect, it } from 'vitest';
import { TRANSCRIPT_ERROR_CODES } from './errors.js';
import { parseTranscript } from './parse-transcript.js';

const events = [
  { id: 0, source: 'agent', action: 'system', args: { content: 'You are OpenHands.' } },
  { id: 1, source: 'user', action: 'message', args: { content: 'fix it' } },
  { id: 2, source: 'environment', observation: 'agent_state_changed', content: '' },
  {
    id: 3,
    source: 'agent',
    action: 'run',
    args: { command: 'ls', thought: 'Look first.' },
    tool_call_metadata: { function_name: 'execute_bash', tool_call_id: 'c1' },
  },
  {
    id: 4,
    source: 'agent',
    observation: 'run',
    cause: 3,
    content: 'a.c',
    tool_call_metadata: {
      function_name: 'execute_bash',
      tool_call_id: 'c1',
      model_response: {
        choices: [
          {
            message: {
              tool_calls: [{ id: 'c1', function: { name: 'execute_bash', arguments: '{"command": "ls -l"}' } }],
            },
          },
        ],
      },
    },
  },
  { id: 5, source: 'agent', observation: 'error', content: 'Parameter command is invalid.' },
  { id: 6, source: 'agent', action: 'message', args: { content: 'Done.' } },
];

describe('OpenHands', () => {
  it('pairs actions and observations into tool calls and results', () => {
    const transcript = parseTranscript(JSON.stringify(events));
    expect(transcript.format).toBe('openhands');
    expect(transcript.messages.map((message) => [message.id, message.role])).toEqual([
      ['oh-0', 'system'],
      ['oh-1', 'user'],
      ['oh-3', 'assistant'],
      ['oh-4', 'tool'],
      ['oh-5', 'user'],
      ['oh-6', 'assistant'],
    ]);
    expect(transcript.messages[2]!.parts).toEqual([
      { id: 'oh-3.text', type: 'text', text: 'Look first.' },
      { id: 'oh-3.call', type: 'tool-call', callId: 'c1', name: 'execute_bash', input: { command: 'ls -l' } },
    ]);
    expect(transcript.messages[3]!.parts[0]).toMatchObject({ type: 'tool-result', callId: 'c1', output: 'a.c' });
    expect(transcript.meta.ignoredEvents).toEqual({ 'observation:agent_state_changed': 1 });
  });

  const runs = [
    JSON.stringify({ instance_id: 'a', history: events.slice(0, 2) }),
    JSON.stringify({ instance_id: 'b', history: events }),
  ].join('\n');

  it('picks a run of the multi-run JSONL and reports the number of runs', () => {
    expect(parseTranscript(runs).meta).toMatchObject({ runs: 2, run: 0, instanceId: 'a' });
    const second = parseTranscript(runs, { run: 1 });
    expect(second.meta).toMatchObject({ runs: 2, run: 1, instanceId: 'b' });
    expect(second.messages[0]!.id).toBe('oh-1-0');
  });

  it('rejects a run that does not exist', () => {
    expect(() => parseTranscript(runs, { run: 5, file: 'out.jsonl' })).toThrow(
      expect.objectContaining({
        code: TRANSCRIPT_ERROR_CODES.runNotFound,
        message: expect.stringMatching(/out\.jsonl: run 5 does not exist; the file has 2 run/),
      }),
    );
  });
});
