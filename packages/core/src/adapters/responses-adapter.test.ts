import { describe, expect, it } from 'vitest';
import type { Message } from '../model/message.js';
import { nativeCompactionOf, openAICompactionItemOf } from '../model/native-compaction-part.js';
import { fromResponsesOutput, toResponsesInput } from './responses-adapter.js';

const compaction = { type: 'compaction', id: 'cmp_1', encrypted_content: 'gAAAA-sealed', created_by: 'resp_1' };

describe('the Responses adapter', () => {
  it('reads an output (compaction item, reasoning, text, call) and sends it back as the items it was', () => {
    const output = [
      compaction,
      {
        type: 'reasoning',
        id: 'rs_1',
        summary: [{ type: 'summary_text', text: 'thinking' }],
        encrypted_content: 'enc',
      },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'running the tests' }] },
      { type: 'function_call', call_id: 'call_1', name: 'bash', arguments: '{"cmd":"npm test"}' },
    ];
    const message = fromResponsesOutput(output, 'resp_1');
    expect(nativeCompactionOf(message.parts[0]!)).toMatchObject({ vendor: 'openai', readable: '' });
    expect(toResponsesInput([message])).toEqual([
      compaction,
      {
        type: 'reasoning',
        id: 'rs_1',
        summary: [{ type: 'summary_text', text: 'thinking' }],
        encrypted_content: 'enc',
      },
      { role: 'assistant', content: [{ type: 'output_text', text: 'running the tests' }] },
      { type: 'function_call', call_id: 'call_1', name: 'bash', arguments: '{"cmd":"npm test"}' },
    ]);
  });

  it('keeps the compaction item exact whatever readable copy the part carries', () => {
    const [part] = fromResponsesOutput([compaction], 'r').parts;
    expect(openAICompactionItemOf({ ...part!, type: 'text', text: '## Goal\nship' })).toEqual(compaction);
  });

  it('sends system, user and tool results as Responses input items', () => {
    const messages: Message[] = [
      { id: 's', role: 'system', parts: [{ id: 's0', type: 'text', text: 'be terse' }] },
      { id: 'u', role: 'user', parts: [{ id: 'u0', type: 'text', text: 'hi' }] },
      { id: 'a', role: 'assistant', parts: [{ id: 'a0', type: 'tool-call', callId: 'c', name: 'ls', input: {} }] },
      { id: 't', role: 'tool', parts: [{ id: 't0', type: 'tool-result', callId: 'c', output: 'a.ts' }] },
    ];
    expect(toResponsesInput(messages)).toEqual([
      { role: 'system', content: 'be terse' },
      { role: 'user', content: 'hi' },
      { type: 'function_call', call_id: 'c', name: 'ls', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c', output: 'a.ts' },
    ]);
  });

  it('refuses an output item it does not model, naming where', () => {
    expect(() => fromResponsesOutput([{ type: 'web_search_call' }], 'r')).toThrow(/output\[0\].*web_search_call/);
  });
});
