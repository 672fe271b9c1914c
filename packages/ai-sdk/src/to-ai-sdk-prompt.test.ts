import { describe, expect, it } from 'vitest';
import type { AiPrompt } from './ai-sdk-types.js';
import { fromAiSdkMessage } from './from-ai-sdk-prompt.js';
import { toAiSdkPrompt } from './to-ai-sdk-prompt.js';
import { createPromptOriginals, type Message } from '@ctxhost/core';
import type { AiMessage, AiPart } from './ai-sdk-types.js';

const prompt: AiPrompt = [
  { role: 'system', content: 'Be terse.' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Read it.' },
      { type: 'file', data: { type: 'data', data: new Uint8Array([1, 2, 3]) }, mediaType: 'image/png' },
    ],
  },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'plan', providerOptions: { anthropic: { signature: 'sig' } } },
      { type: 'tool-call', toolCallId: 't1', toolName: 'read', input: { path: 'a' } },
    ],
  },
  {
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: 't1', toolName: 'read', output: { type: 'json', value: { lines: 3 } } },
    ],
  },
];

function mapAll(source: AiPrompt): Message[] {
  return source.map((message, index) => {
    const mapped = fromAiSdkMessage(message, `m${index}`);
    if (!mapped.ok) throw new Error(mapped.unmappedType);
    return mapped.message;
  });
}

function remembered(messages: Message[], source: AiPrompt) {
  const originals = createPromptOriginals<AiMessage, AiPart>();
  messages.forEach((message, index) =>
    originals.remember(
      message,
      source[index]!,
      typeof source[index]!.content === 'string' ? [] : source[index]!.content,
    ),
  );
  return originals;
}

describe('the AI SDK prompt through ctxhost and back', () => {
  it('renders only the messages that are not the objects rendered at the same place last time, for the same view', () => {
    const messages = mapAll(prompt);
    const originals = remembered(messages, prompt);
    const first = toAiSdkPrompt(messages, originals);
    const longer = toAiSdkPrompt(
      [...messages, { id: 'm4', role: 'user', parts: [{ id: 'm4:0', type: 'text', text: 'Next.' }] }],
      originals,
    );
    expect(longer.slice(0, first.length)).toEqual(first);
    expect(longer.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: 'Next.' }] });
    // A hook replaced the system message (a new object): it alone is rendered again.
    const changed = [
      { ...messages[0]!, parts: [{ id: 'm0:0', type: 'text' as const, text: 'Be brief.' }] },
      ...messages.slice(1),
    ];
    const again = toAiSdkPrompt(changed, originals);
    expect(again[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(again.slice(1)).toEqual(first.slice(1));
    expect(again).toHaveLength(first.length);
  });

  it('gives back the caller’s own objects when nothing changed', () => {
    const messages = mapAll(prompt);
    const originals = remembered(messages, prompt);
    const back = toAiSdkPrompt(messages, originals);
    expect(back).toEqual(prompt);
    expect(back[2]!.content[0]).toBe(prompt[2]!.content[0]);
  });

  it('rebuilds a part a hook changed and keeps the others', () => {
    const messages = mapAll(prompt);
    const originals = remembered(messages, prompt);
    const truncated = messages.map((message) =>
      message.role === 'tool'
        ? { ...message, parts: message.parts.map((part) => ({ ...part, output: '[truncated]' }) as typeof part) }
        : message,
    );
    const back = toAiSdkPrompt(truncated, originals);
    expect(back[3]).toEqual({
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 't1', toolName: 'read', output: { type: 'text', value: '[truncated]' } },
      ],
    });
    expect(back[1]!.content).toEqual(prompt[1]!.content);
  });

  it('turns a cache breakpoint into providerOptions.anthropic.cacheControl, on the message for the system prompt', () => {
    const messages = mapAll(prompt);
    const originals = remembered(messages, prompt);
    const marked = messages.map((message) => ({
      ...message,
      parts: message.parts.map((part, index) =>
        index === message.parts.length - 1 ? { ...part, cacheControl: { type: 'ephemeral' as const } } : part,
      ),
    }));
    const back = toAiSdkPrompt(marked, originals);
    expect(back[0]!.providerOptions).toEqual({ anthropic: { cacheControl: { type: 'ephemeral' } } });
    const reasoningAndCall = back[2]!.content as { providerOptions?: unknown }[];
    expect(reasoningAndCall[0]!.providerOptions).toEqual({ anthropic: { signature: 'sig' } });
    expect(reasoningAndCall[1]!.providerOptions).toEqual({ anthropic: { cacheControl: { type: 'ephemeral' } } });
    expect(prompt[2]!.content[1]).not.toHaveProperty('providerOptions');
  });

  it('carries a custom part (provider metadata in the history) through as itself', () => {
    const source: AiPrompt = [
      {
        role: 'assistant',
        content: [
          { type: 'custom', kind: 'anthropic.message_start', providerOptions: { anthropic: { id: 'msg_1' } } },
          { type: 'text', text: 'Hi.' },
        ],
      },
    ];
    const messages = mapAll(source);
    expect(messages[0]!.parts[0]).toMatchObject({
      type: 'text',
      text: '',
      extra: { aiSdkCustom: 'anthropic.message_start' },
    });
    expect(toAiSdkPrompt(messages, remembered(messages, source))).toEqual(source);
    expect(toAiSdkPrompt(messages, createPromptOriginals())[0]!.content[0]).toEqual({
      type: 'custom',
      kind: 'anthropic.message_start',
    });
  });

  it('names the part it has no place for instead of dropping it', () => {
    expect(
      fromAiSdkMessage(
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'x' },
            { type: 'reasoning-file', data: { type: 'data', data: 'aGk=' }, mediaType: 'image/png' },
          ],
        },
        'm',
      ),
    ).toEqual({ ok: false, unmappedType: 'reasoning-file' });
    expect(
      fromAiSdkMessage(
        {
          role: 'user',
          content: [
            {
              type: 'file',
              data: { type: 'reference', reference: { anthropic: 'file_1' } },
              mediaType: 'application/pdf',
            },
          ],
        },
        'm',
      ),
    ).toEqual({ ok: false, unmappedType: 'file (reference)' });
    expect(
      fromAiSdkMessage(
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'a', approved: true }] },
        'm',
      ),
    ).toEqual({ ok: false, unmappedType: 'tool-approval-response' });
  });
});
