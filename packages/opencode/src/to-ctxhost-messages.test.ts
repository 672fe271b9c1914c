import { MessageSchema } from '@ctxhost/core';
import type { AssistantMessage, Part, UserMessage } from '@opencode-ai/sdk';
import { describe, expect, it } from 'vitest';
import { toCtxhostMessages, toolMessageId, type ShortenedOutput } from './to-ctxhost-messages.js';

const at = { sessionID: 'ses_1', messageID: 'msg_a' };
const user: UserMessage = {
  id: 'msg_u',
  sessionID: 'ses_1',
  role: 'user',
  time: { created: 0 },
  agent: 'build',
  model: { providerID: 'anthropic', modelID: 'claude-sonnet-4-5' },
};
const assistant: AssistantMessage = {
  id: 'msg_a',
  sessionID: 'ses_1',
  role: 'assistant',
  time: { created: 0, completed: 1 },
  parentID: 'msg_u',
  modelID: 'claude-sonnet-4-5',
  providerID: 'anthropic',
  mode: 'build',
  path: { cwd: '/p', root: '/p' },
  cost: 0,
  tokens: { input: 1200, output: 30, reasoning: 0, cache: { read: 500, write: 100 } },
};
const completed = (id: string, callID: string, output: string): Part => ({
  ...at,
  id,
  type: 'tool',
  callID,
  tool: 'bash',
  state: {
    status: 'completed',
    input: { command: 'ls' },
    output,
    title: 'ls',
    metadata: {},
    time: { start: 0, end: 1 },
  },
});

describe('toCtxhostMessages', () => {
  it('keeps a user message’s texts under opencode’s ids', () => {
    const parts: Part[] = [{ ...at, messageID: 'msg_u', id: 'prt_1', type: 'text', text: 'fix the build' }];
    const { messages, usage } = toCtxhostMessages(user, parts, new Map());
    expect(messages).toEqual([
      {
        id: 'msg_u',
        role: 'user',
        parts: [{ id: 'prt_1', type: 'text', text: 'fix the build' }],
        meta: { createdAt: '1970-01-01T00:00:00.000Z', opencodeMessageId: 'msg_u' },
      },
    ]);
    expect(usage).toBeUndefined();
  });

  it('splits an assistant message into the calls and one tool message of results, with usage as reported', () => {
    const parts: Part[] = [
      { ...at, id: 'prt_s', type: 'step-start' },
      { ...at, id: 'prt_t', type: 'text', text: 'Listing.' },
      completed('prt_tool', 'toolu_1', 'a.txt\nb.txt'),
      {
        ...at,
        id: 'prt_e',
        type: 'tool',
        callID: 'toolu_2',
        tool: 'read',
        state: { status: 'error', input: {}, error: 'no such file', time: { start: 0, end: 1 } },
      },
    ];
    const { messages, usage, originals } = toCtxhostMessages(assistant, parts, new Map());
    expect(messages.map((message) => MessageSchema.parse(message))).toHaveLength(2);
    expect(messages[0]?.parts.map((part) => part.type)).toEqual(['text', 'tool-call', 'tool-call']);
    expect(messages[1]).toMatchObject({ id: toolMessageId('msg_a'), role: 'tool' });
    expect(messages[1]?.parts).toEqual([
      { id: 'prt_tool', type: 'tool-result', callId: 'toolu_1', name: 'bash', output: 'a.txt\nb.txt' },
      { id: 'prt_e', type: 'tool-result', callId: 'toolu_2', name: 'read', output: 'no such file', isError: true },
    ]);
    expect(usage).toEqual({
      inputTokens: 1200,
      outputTokens: 30,
      cacheCreationInputTokens: 100,
      cacheReadInputTokens: 500,
    });
    expect(originals).toEqual([]);
  });

  it('marks an output the truncator shortened and returns its original', () => {
    const shortened = new Map<string, ShortenedOutput>([
      [
        'toolu_1',
        { original: 'the whole output', compacted: { by: 'tool-output-truncator', reason: 'cap', originalChars: 16 } },
      ],
    ]);
    const { messages, originals } = toCtxhostMessages(
      assistant,
      [completed('prt_tool', 'toolu_1', 'the [...] output')],
      shortened,
    );
    expect(messages[1]?.parts[0]).toMatchObject({
      id: 'prt_tool',
      output: 'the [...] output',
      compacted: { by: 'tool-output-truncator' },
    });
    expect(originals).toEqual([
      { id: 'prt_tool', type: 'tool-result', callId: 'toolu_1', name: 'bash', output: 'the whole output' },
    ]);
  });

  it('reports no usage when opencode reported none (a failed call)', () => {
    const failed = { ...assistant, tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } } };
    expect(toCtxhostMessages(failed, [], new Map()).usage).toBeUndefined();
  });
});
