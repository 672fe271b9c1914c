import { describe, expect, it } from 'vitest';
import { geminiToMessagesRequest, validateGenerateContentRequest } from './gemini-request.js';
import type { GeminiContent } from '../wire/gemini-wire.js';

const call: GeminiContent = { role: 'model', parts: [{ functionCall: { name: 'ls', args: {} } }] };
const answer: GeminiContent = {
  role: 'user',
  parts: [{ functionResponse: { name: 'ls', response: { output: 'a' } } }],
};
const ask: GeminiContent = { role: 'user', parts: [{ text: 'list' }] };

describe('validateGenerateContentRequest', () => {
  it.each([
    ['no contents', {}, 'contents is not specified'],
    ['empty contents', { contents: [] }, 'contents is not specified'],
    ['an unknown role', { contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] }, 'valid role: user, model'],
    ['empty parts', { contents: [{ role: 'user', parts: [] }] }, 'contents[0].parts: contents.parts must not be empty'],
    ['a call first', { contents: [call, answer] }, 'function call turn comes immediately after a user turn'],
    ['an unanswered call', { contents: [ask, call, ask] }, 'number of function response parts is equal'],
  ])('rejects %s as a shape error', (_name, body, text) => {
    const problem = validateGenerateContentRequest(body);
    expect(problem?.message).toContain(text);
    expect(problem?.shape).toBe(true);
  });

  it('accepts a call answered in the next turn, and an open call at the end', () => {
    expect(validateGenerateContentRequest({ contents: [ask, call, answer] })).toBeUndefined();
    expect(validateGenerateContentRequest({ contents: [ask, call] })).toBeUndefined();
  });
});

describe('geminiToMessagesRequest', () => {
  it('reads system, thoughts, calls and responses as a Messages request', () => {
    const request = geminiToMessagesRequest('gemini-3-flash-preview', {
      systemInstruction: { parts: [{ text: 'be terse' }] },
      contents: [ask, { role: 'model', parts: [{ text: 'hmm', thought: true }, ...call.parts] }, answer],
      tools: [{ functionDeclarations: [{ name: 'ls', parametersJsonSchema: { type: 'object' } }] }],
      generationConfig: { maxOutputTokens: 512 },
    });
    expect(request.system).toBe('be terse');
    expect(request.max_tokens).toBe(512);
    expect(request.tools).toEqual([{ name: 'ls', input_schema: { type: 'object' } }]);
    expect(request.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(request.messages[1]?.content).toEqual([
      { type: 'thinking', thinking: 'hmm' },
      { type: 'tool_use', id: 'ls', name: 'ls', input: {} },
    ]);
    expect(request.messages[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'ls', content: '{"output":"a"}' },
    ]);
  });
});
