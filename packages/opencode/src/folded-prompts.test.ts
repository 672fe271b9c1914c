import type { Part } from '@opencode-ai/sdk';
import { describe, expect, it } from 'vitest';
import { foldedPrompts, type OpencodeMessage } from './folded-prompts.js';

const model = { providerID: 'anthropic', modelID: 'claude-sonnet-4-6' };

function user(id: string, parts: Partial<Part>[]): OpencodeMessage {
  return {
    info: { id, sessionID: 'ses_1', role: 'user', time: { created: 1 }, agent: 'build', model },
    parts: parts as Part[],
  };
}

function reply(id: string, parentID: string, summary = false): OpencodeMessage {
  return {
    info: { id, sessionID: 'ses_1', role: 'assistant', parentID, summary, time: { created: 1 } },
    parts: [],
  } as unknown as OpencodeMessage;
}

const text = (value: string, synthetic?: boolean): Partial<Part> => ({ type: 'text', text: value, synthetic });
const compaction: Partial<Part> = { type: 'compaction' };

describe('foldedPrompts', () => {
  it('finds the prompts between the last answered one and the compaction marker that have no reply of their own', () => {
    const messages = [
      user('msg_u1', [text('first')]),
      reply('msg_a1', 'msg_u1'),
      user('msg_u2', [text('second, sent as the turn ended')]),
      user('msg_u3', [text('context a tool added', true)]),
      user('msg_u4', [text('third'), text('with two parts')]),
      user('msg_c', [compaction]),
      reply('msg_s', 'msg_c', true),
    ];
    expect(foldedPrompts(messages)).toEqual([
      { messageId: 'msg_u2', texts: ['second, sent as the turn ended'], model, agent: 'build' },
      { messageId: 'msg_u4', texts: ['third', 'with two parts'], model, agent: 'build' },
    ]);
  });

  it('finds none when every prompt before the marker was answered, or when there is no marker', () => {
    const answered = [user('msg_u1', [text('first')]), reply('msg_a1', 'msg_u1'), user('msg_c', [compaction])];
    expect(foldedPrompts(answered)).toEqual([]);
    expect(foldedPrompts([user('msg_u1', [text('first')])])).toEqual([]);
  });

  it('leaves alone a prompt sent after the marker (opencode answers it after the summary) and older unanswered ones', () => {
    const messages = [
      user('msg_u0', [text('an old prompt that never got a reply')]),
      user('msg_u1', [text('first')]),
      reply('msg_a1', 'msg_u1'),
      user('msg_c', [compaction]),
      reply('msg_s', 'msg_c', true),
      user('msg_u2', [text('sent during the summary')]),
    ];
    expect(foldedPrompts(messages)).toEqual([]);
  });
});
