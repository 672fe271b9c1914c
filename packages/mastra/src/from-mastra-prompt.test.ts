import type { LanguageModelV4Message } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { fromMastraMessage } from './from-mastra-prompt.js';

/** A user message as Mastra builds it for a model: the file in the AI SDK 5 shape. */
function userWithFile(data: unknown): LanguageModelV4Message {
  return {
    role: 'user',
    content: [
      { type: 'text', text: 'look', providerOptions: { mastra: { createdAt: 1 } } },
      { type: 'file', mediaType: 'application/pdf', data, providerOptions: { mastra: { createdAt: 1 } } },
    ],
  } as LanguageModelV4Message;
}

describe('fromMastraMessage', () => {
  it.each([
    ['a base64 string', 'JVBERi0=', { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' }],
    ['a URL string', 'https://example.com/a.pdf', { kind: 'url', url: 'https://example.com/a.pdf' }],
    ['a URL', new URL('https://example.com/b.pdf'), { kind: 'url', url: 'https://example.com/b.pdf' }],
    ['bytes', new Uint8Array([104, 105]), { kind: 'base64', mediaType: 'application/pdf', data: 'aGk=' }],
  ])('reads a file given as %s, and keeps Mastra’s own parts as what is sent', (_case, data, source) => {
    const message = userWithFile(data);
    const mapped = fromMastraMessage(message, 'm1');
    expect(mapped.ok).toBe(true);
    if (!mapped.ok) return;
    expect(mapped.message.parts[1]).toEqual({ id: 'm1:1', type: 'file', source });
    expect(mapped.sourceParts).toBe(message.content);
  });

  it('leaves a message with a part ctxhost has no place for unmapped, naming the part', () => {
    const mapped = fromMastraMessage(
      {
        role: 'assistant',
        content: [{ type: 'reasoning-file', data: { type: 'data', data: 'aGk=' }, mediaType: 'image/png' }],
      },
      'm2',
    );
    expect(mapped).toEqual({ ok: false, unmappedType: 'reasoning-file' });
  });
});
