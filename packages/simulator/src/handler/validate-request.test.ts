import { describe, expect, it } from 'vitest';
import { validateRequest } from './validate-request.js';

const user = (content: unknown) => ({ role: 'user', content });
const assistant = (content: unknown) => ({ role: 'assistant', content });
const call = (id: string) => ({ type: 'tool_use', id, name: 'ls', input: {} });
const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'ok' });
const request = (messages: unknown[], extra: object = {}) => ({ model: 'm', max_tokens: 10, messages, ...extra });

describe('validateRequest', () => {
  it.each([
    ['not an object', [], 'request body must be a JSON object'],
    ['no model', { max_tokens: 1, messages: [user('x')] }, 'model: Field required'],
    ['no max_tokens', { model: 'm', messages: [user('x')] }, 'max_tokens: Field required'],
    [
      'a fractional max_tokens',
      request([user('x')], { max_tokens: 1.5 }),
      'max_tokens: Input should be a valid integer',
    ],
    [
      'a zero max_tokens',
      request([user('x')], { max_tokens: 0 }),
      'max_tokens: Input should be greater than or equal to 1',
    ],
    ['no messages', request([]), 'messages: at least one message is required'],
    [
      'a tool without input_schema (as the API words it)',
      request([user('x')], { tools: [{ name: 'ls', description: 'list' }] }),
      'tools.0.custom.input_schema: Field required',
    ],
    [
      'a tool whose schema is spelt inputSchema',
      request([user('x')], {
        tools: [
          { name: 'ls', input_schema: { type: 'object' } },
          { name: 'cat', inputSchema: {} },
        ],
      }),
      'tools.1.custom.input_schema: Field required',
    ],
    [
      'a custom tool without a name',
      request([user('x')], { tools: [{ type: 'custom', input_schema: { type: 'object' } }] }),
      'tools.0.custom.name: Field required',
    ],
    [
      'a non-text system block',
      request([user('x')], { system: [{ type: 'image' }] }),
      "system.0.type: Input tag 'image' found using 'type' does not match any of the expected tags: 'text'",
    ],
    ['an assistant first', request([assistant('x')]), 'messages: first message must use the "user" role'],
    [
      'an unknown role',
      request([user('x'), { role: 'system', content: 'y' }]),
      "messages.1.role: Input should be 'user' or 'assistant'",
    ],
    [
      'empty content in the middle',
      request([user('x'), assistant([]), user('y')]),
      'messages.1: all messages must have non-empty content except for the optional final assistant message',
    ],
    [
      'an empty user string',
      request([user('')]),
      'messages.0: all messages must have non-empty content except for the optional final assistant message',
    ],
    [
      'an empty text block',
      request([
        user([
          { type: 'text', text: 'a' },
          { type: 'text', text: '' },
        ]),
      ]),
      'messages.0.content.1.text: text content blocks must be non-empty',
    ],
    [
      'an unknown user block',
      request([user([{ type: 'video' }])]),
      "messages.0.content.0.type: Input tag 'video' found using 'type' does not match any of the expected tags: 'text', 'image', 'document', 'tool_result', 'search_result'",
    ],
    [
      'a tool_use from the user',
      request([user([call('t')])]),
      "messages.0.content.0.type: Input tag 'tool_use' found using 'type' does not match any of the expected tags: 'text', 'image', 'document', 'tool_result', 'search_result'",
    ],
    [
      'an orphan result',
      request([
        user('go'),
        assistant('ok'),
        user('more'),
        assistant([call('toolu_a')]),
        user([result('toolu_a'), result('toolu_x')]),
      ]),
      'messages.4.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_x. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    ],
    [
      'a result two messages late',
      request([
        user('go'),
        assistant([call('toolu_a')]),
        user([result('toolu_a')]),
        assistant('ok'),
        user([result('toolu_a')]),
      ]),
      'messages.4.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_a. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    ],
    [
      'an unanswered call',
      request([user('go'), assistant([call('toolu_y'), call('toolu_z')]), user([result('toolu_z')])]),
      'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_y. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    ],
    [
      'five breakpoints',
      request([
        user([1, 2, 3, 4, 5].map((n) => ({ type: 'text', text: `b${n}`, cache_control: { type: 'ephemeral' } }))),
      ]),
      'A maximum of 4 blocks with cache_control may be provided. Found 5.',
    ],
    [
      'five breakpoints across tools, system and messages',
      request([user([{ type: 'text', text: 'x', cache_control: { type: 'ephemeral' } }])], {
        tools: [1, 2].map((n) => ({ name: `t${n}`, input_schema: {}, cache_control: { type: 'ephemeral' } })),
        system: [1, 2].map((n) => ({ type: 'text', text: `s${n}`, cache_control: { type: 'ephemeral' } })),
      }),
      'A maximum of 4 blocks with cache_control may be provided. Found 5.',
    ],
  ])('rejects %s', (_name, body, message) => {
    const error = validateRequest(body);
    expect(error?.status).toBe(400);
    expect(error?.type).toBe('invalid_request_error');
    expect(error?.message).toBe(message);
  });

  it.each([
    ['a plain exchange', request([user('go'), assistant('ok'), user('more')])],
    [
      'a paired tool call',
      request([
        user('go'),
        assistant([{ type: 'text', text: 'look' }, call('toolu_a')]),
        user([result('toolu_a'), { type: 'text', text: 'and?' }]),
      ]),
    ],
    ['an empty final assistant message (prefill)', request([user('go'), assistant('')])],
    [
      'a custom tool with its schema, and a server tool (which has none)',
      request([user('go')], {
        tools: [
          { name: 'ls', input_schema: { type: 'object' } },
          { type: 'bash_20250124', name: 'bash' },
        ],
      }),
    ],
    ['a trailing unanswered call in the final assistant message', request([user('go'), assistant([call('toolu_a')])])],
    [
      'thinking blocks',
      request([
        user('go'),
        assistant([
          { type: 'thinking', thinking: 'hm', signature: 's' },
          { type: 'text', text: 'ok' },
        ]),
        user('more'),
      ]),
    ],
    [
      'four breakpoints',
      request([user([1, 2, 3, 4].map((n) => ({ type: 'text', text: `b${n}`, cache_control: { type: 'ephemeral' } })))]),
    ],
  ])('accepts %s', (_name, body) => {
    expect(validateRequest(body)).toBeUndefined();
  });

  it('accepts a count_tokens body without max_tokens, and a feature’s extra block types', () => {
    expect(validateRequest({ model: 'm', messages: [user('x')] }, { countOnly: true })).toBeUndefined();
    const body = request([user('go'), assistant([{ type: 'compaction', content: 'summary' }]), user('more')]);
    expect(validateRequest(body)?.message).toMatch(/Input tag 'compaction'/);
    expect(validateRequest(body, { extraBlockTypes: ['compaction'] })).toBeUndefined();
  });
});
