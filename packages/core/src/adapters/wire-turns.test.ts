import { describe, expect, it } from 'vitest';
import { readChatRequest } from './chat-turns.js';
import { readGenerateContentRequest } from './gemini-turns.js';
import { readResponsesRequest } from './responses-turns.js';

describe('wire turns: where each message came from', () => {
  it('chat: system items apart, tool results and the user text after them one turn', () => {
    const turns = readChatRequest({
      model: 'gpt-5',
      messages: [
        { role: 'system', content: 'be terse' },
        { role: 'user', content: 'list' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'a b' },
        { role: 'user', content: 'and now?' },
      ],
    });
    expect(turns.systemSources).toEqual([0]);
    expect(turns.sources).toEqual([[1], [2], [3, 4]]);
    expect(turns.request.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('responses: a reasoning item with nothing readable travels with the next message', () => {
    const turns = readResponsesRequest({
      model: 'gpt-5',
      instructions: 'be terse',
      input: [
        { role: 'developer', content: 'rules' },
        { role: 'user', content: 'list' },
        { type: 'reasoning', summary: [], encrypted_content: 'enc' },
        { type: 'function_call', call_id: 'c1', name: 'ls', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: 'a b' },
      ],
    });
    expect(turns.systemSources).toEqual([0]);
    expect(turns.sources).toEqual([[1], [2, 3], [4]]);
    expect(turns.request.system).toBe('be terse\n\nrules');
  });

  it('gemini: one message per content', () => {
    const turns = readGenerateContentRequest('gemini-2.5-flash', {
      contents: [
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts: [{ text: 'hello' }] },
      ],
    });
    expect(turns.sources).toEqual([[0], [1]]);
  });
});
