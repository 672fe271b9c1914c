import {
  ANTHROPIC_COMPACTION,
  NATIVE_PART_MARKER,
  createPromptOriginals,
  openAICompactionPart,
  type Message,
  type Part,
} from '@ctxhost/core';
import {
  AIMessage,
  ChatMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  type BaseMessage,
} from '@langchain/core/messages';
import { ContextOverflowError } from '@langchain/core/errors';
import { describe, expect, it } from 'vitest';
import { fromLangChainMessage } from './from-langchain-message.js';
import { overflowOf, unwrapProviderError } from './provider-error.js';
import { toLangChainRequest } from './to-langchain-messages.js';

/** The agent's messages mapped as the middleware maps them, with the originals remembered. */
function mapped(messages: BaseMessage[]) {
  const originals = createPromptOriginals<BaseMessage, unknown>();
  const list: Message[] = messages.map((source, index) => {
    const result = fromLangChainMessage(source, `m${index}`);
    if (!result.ok) throw new Error(result.unmappedType);
    originals.remember(result.message, source, result.sourceParts);
    return result.message;
  });
  return { list, originals };
}

const conversation = (): BaseMessage[] => [
  new SystemMessage('You are careful.'),
  new HumanMessage('Read a.ts.'),
  new AIMessage({ content: 'Reading.', tool_calls: [{ id: 'call_1', name: 'read_file', args: { path: 'a.ts' } }] }),
  new ToolMessage({ content: 'line\n'.repeat(50), tool_call_id: 'call_1', name: 'read_file' }),
  new AIMessage('Done.'),
];

function withPart(message: Message, index: number, change: (part: Part) => Part): Message {
  return { ...message, parts: message.parts.map((part, at) => (at === index ? change(part) : part)) };
}

describe('toLangChainRequest', () => {
  it("sends the agent's own objects for what no hook changed, the system message apart", () => {
    const source = conversation();
    const { list, originals } = mapped(source);
    const request = toLangChainRequest(list, originals, { cacheControl: true });
    expect(request.systemMessage).toBe(source[0]);
    expect(request.messages).toHaveLength(4);
    request.messages.forEach((message, index) => expect(message).toBe(source[index + 1]));
  });

  it('rebuilds a shortened tool output as a ToolMessage answering the same call', () => {
    const { list, originals } = mapped(conversation());
    list[3] = withPart(list[3]!, 0, (part) => ({ ...part, output: 'line (48 lines elided) line' }) as Part);
    const tool = toLangChainRequest(list, originals, { cacheControl: false }).messages[2] as ToolMessage;
    expect(ToolMessage.isInstance(tool)).toBe(true);
    expect([tool.content, tool.tool_call_id, tool.name]).toEqual([
      'line (48 lines elided) line',
      'call_1',
      'read_file',
    ]);
  });

  it('puts a breakpoint on the last block as cache_control for ChatAnthropic, and leaves it out otherwise', () => {
    const { list, originals } = mapped(conversation());
    const marker = { type: 'ephemeral' as const };
    const marked = list.map((message) =>
      withPart(message, message.parts.length - 1, (part) => ({ ...part, cacheControl: marker })),
    );
    const anthropic = toLangChainRequest(marked, originals, { cacheControl: true });
    expect(anthropic.systemMessage!.content).toEqual([
      { type: 'text', text: 'You are careful.', cache_control: marker },
    ]);
    expect(anthropic.messages[1]!.content).toEqual([
      { type: 'text', text: 'Reading.' },
      { type: 'tool_use', id: 'call_1', name: 'read_file', input: { path: 'a.ts' }, cache_control: marker },
    ]);
    expect((anthropic.messages[1] as AIMessage).tool_calls).toHaveLength(1);
    expect(anthropic.messages[2]!.content).toEqual([
      { type: 'text', text: 'line\n'.repeat(50), cache_control: marker },
    ]);
    const other = toLangChainRequest(marked, originals, { cacheControl: false });
    expect(JSON.stringify(other.messages.map((message) => message.content))).not.toContain('cache_control');
  });

  it("sends a provider's compaction as its own block or item to the provider that made it, as its readable copy elsewhere", () => {
    const { originals } = mapped([]);
    const item = { type: 'compaction' as const, id: 'cmp_1', encrypted_content: 'sealed' };
    const list: Message[] = [
      {
        id: 'a',
        role: 'assistant',
        parts: [
          { id: 'a:0', type: 'text', text: 'Anthropic summary', extra: { [NATIVE_PART_MARKER]: ANTHROPIC_COMPACTION } },
        ],
      },
      { id: 'o', role: 'user', parts: [openAICompactionPart(item, 'o:0', 'OpenAI copy')] },
      { id: 'u', role: 'user', parts: [{ id: 'u:0', type: 'text', text: 'go on' }] },
    ];
    const contents = (provider: 'anthropic' | 'openai-responses' | 'other') =>
      toLangChainRequest(list, originals, { cacheControl: provider === 'anthropic', provider }).messages.map(
        (message) =>
          [message.type, message.content, (message.response_metadata as Record<string, unknown>)['output']] as const,
      );
    expect(contents('anthropic')).toEqual([
      ['ai', [{ type: 'compaction', content: 'Anthropic summary' }], undefined],
      ['human', 'OpenAI copy', undefined],
      ['human', 'go on', undefined],
    ]);
    expect(contents('openai-responses')).toEqual([
      ['ai', 'Anthropic summary', undefined],
      ['ai', '', [item]],
      ['human', 'go on', undefined],
    ]);
    expect(contents('other').map(([, content]) => content)).toEqual(['Anthropic summary', 'OpenAI copy', 'go on']);
  });
});

describe('fromLangChainMessage', () => {
  it.each([
    [
      'an Anthropic document block',
      new HumanMessage({ content: [{ type: 'document', source: { type: 'text', data: 'x' } }] }),
      'document',
    ],
    ['a ChatMessage', new ChatMessage({ content: 'hi', role: 'critic' }), 'message (generic)'],
    [
      'a tool message with an image',
      new ToolMessage({ content: [{ type: 'image_url', image_url: 'https://x/y.png' }], tool_call_id: 'c' }),
      'tool message content (image_url)',
    ],
  ])('names %s it cannot map', (_name, message, type) => {
    expect(fromLangChainMessage(message, 'm0')).toEqual({ ok: false, unmappedType: type });
  });

  it('maps thinking with its signature and reads tool calls from tool_calls, not the tool_use echo', () => {
    const reply = new AIMessage({
      content: [
        { type: 'thinking', thinking: 'plan', signature: 'sig' },
        { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.ts' } },
      ],
      tool_calls: [{ id: 'toolu_1', name: 'read_file', args: { path: 'a.ts' } }],
    });
    const result = fromLangChainMessage(reply, 'm0');
    expect(result.ok && result.message.parts.map((part) => part.type)).toEqual(['reasoning', 'tool-call']);
  });
});

describe('overflowOf', () => {
  const anthropic = Object.assign(new Error('400 prompt is too long: 210000 tokens > 200000 maximum'), { status: 400 });

  it("reads an overflow through LangChain's ContextOverflowError, with the provider's status and numbers", () => {
    const wrapped = ContextOverflowError.fromError(anthropic);
    expect(unwrapProviderError(wrapped)).toBe(anthropic);
    expect(overflowOf(wrapped)).toMatchObject({
      kind: 'context_overflow',
      status: 400,
      currentTokens: 210000,
      maxTokens: 200000,
    });
  });

  it('takes a ContextOverflowError in words the parser does not know as an overflow', () => {
    expect(overflowOf(new ContextOverflowError())).toMatchObject({ kind: 'context_overflow' });
  });

  it.each([
    ['a server error', Object.assign(new Error('500 Internal server error'), { status: 500 })],
    [
      'a rate limit counted in tokens',
      Object.assign(new Error('429 rate limit: 40000 input tokens per minute'), { status: 429 }),
    ],
  ])('leaves %s alone', (_name, error) => {
    expect(overflowOf(error)).toBeUndefined();
  });
});
