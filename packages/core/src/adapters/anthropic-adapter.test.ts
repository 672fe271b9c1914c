import { describe, expect, it } from 'vitest';
import { fromAnthropic, toAnthropic } from './anthropic-adapter.js';
import type { AnthropicMessageParam } from './anthropic-wire-types.js';
import type { Message } from '../model/message.js';

describe('fromAnthropic / toAnthropic', () => {
  it('imports system, text, thinking, tool use and results, and gives back an equal request', () => {
    const system = 'You are terse.';
    const messages: AnthropicMessageParam[] = [
      { role: 'user', content: 'List the files.' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'I should call ls.', signature: 'sig==' },
          { type: 'text', text: 'Listing.' },
          { type: 'tool_use', id: 'toolu_1', name: 'ls', input: { path: '.' } },
          { type: 'tool_use', id: 'toolu_2', name: 'ls', input: { path: 'src' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.ts\nb.ts' },
          {
            type: 'tool_result',
            tool_use_id: 'toolu_2',
            content: [{ type: 'text', text: 'index.ts' }],
            is_error: false,
            cache_control: { type: 'ephemeral' },
          },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'redacted_thinking', data: 'opaque' },
          { type: 'text', text: 'Done.', citations: null },
        ],
      },
    ];
    const model = fromAnthropic(messages, system);
    expect(model.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    expect(model[3]?.parts[1]).toMatchObject({
      type: 'tool-result',
      callId: 'toolu_2',
      cacheControl: { type: 'ephemeral' },
      isError: false,
    });
    expect(model[4]?.parts[0]).toMatchObject({ type: 'reasoning', redacted: true, data: 'opaque' });
    expect(toAnthropic(model)).toEqual({ system, messages });
  });

  it('merges tool messages and the user text that follows into one user turn', () => {
    const model: Message[] = [
      { id: 'u', role: 'user', parts: [{ id: 'u0', type: 'text', text: 'run it' }] },
      {
        id: 'a',
        role: 'assistant',
        parts: [
          { id: 'a0', type: 'tool-call', callId: 'c1', name: 'run', input: {} },
          { id: 'a1', type: 'tool-call', callId: 'c2', name: 'run', input: {} },
        ],
      },
      { id: 't1', role: 'tool', parts: [{ id: 't10', type: 'tool-result', callId: 'c1', output: 'one' }] },
      { id: 't2', role: 'tool', parts: [{ id: 't20', type: 'tool-result', callId: 'c2', output: 'two' }] },
      { id: 'n', role: 'user', parts: [{ id: 'n0', type: 'text', text: 'a notice' }] },
    ];
    const { messages } = toAnthropic(model);
    expect(messages).toHaveLength(3);
    expect(messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'c1', content: 'one' },
        { type: 'tool_result', tool_use_id: 'c2', content: 'two' },
        { type: 'text', text: 'a notice' },
      ],
    });
  });

  it('keeps a tool_result without content distinct from one with empty content', () => {
    const messages: AnthropicMessageParam[] = [
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'x' }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'y', content: '' }] },
    ];
    expect(toAnthropic(fromAnthropic(messages)).messages).toEqual(messages);
  });

  it.each([
    [
      { role: 'user', content: [{ type: 'server_tool_use', id: 'x' }] },
      /messages\[0\]\.content\[0\]: unsupported content block type "server_tool_use"/,
    ],
    [{ role: 'robot', content: 'hi' }, /messages\[0\]\.role: expected "user" or "assistant", got "robot"/],
    [{ role: 'user', content: 42 }, /messages\[0\]\.content: expected a string or a list of content blocks/],
  ])('names what is wrong and where: %j', (message, error) => {
    expect(() => fromAnthropic([message as unknown as AnthropicMessageParam])).toThrow(error);
  });

  it('refuses a part the Anthropic format cannot carry, naming it', () => {
    const model: Message[] = [
      { id: 'a', role: 'assistant', parts: [{ id: 'a0', type: 'tool-result', callId: 'c', output: 'x' }] },
    ];
    expect(() => toAnthropic(model)).toThrow(
      /messages\[0\]\.parts\[0\]: a assistant message cannot carry a tool-result part/,
    );
  });
});
