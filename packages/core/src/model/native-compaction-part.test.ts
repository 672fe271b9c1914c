import { describe, expect, it } from 'vitest';
import { fromAnthropic, toAnthropic } from '../adapters/anthropic-adapter.js';
import { toOpenAI } from '../adapters/openai-adapter.js';
import type { Message } from './message.js';
import {
  nativeCompactionOf,
  NO_READABLE_COPY,
  openAICompactionItemOf,
  openAICompactionPart,
  withReadableCopy,
} from './native-compaction-part.js';

const item = { type: 'compaction' as const, id: 'cmp_1', encrypted_content: 'gAAAA-opaque', created_by: 'resp_9' };
const conversation = (text: string): Message[] => [
  { id: 'u', role: 'user', parts: [{ id: 'u:0', type: 'text', text: 'go on' }] },
  { id: 'a', role: 'assistant', parts: [openAICompactionPart(item, 'a:0', text)] },
  { id: 'u2', role: 'user', parts: [{ id: 'u2:0', type: 'text', text: 'next' }] },
];

describe("a provider's compaction as a part", () => {
  it('gives an OpenAI item back exactly as OpenAI returned it, whatever its readable copy', () => {
    const part = openAICompactionPart(item, 'p');
    expect(openAICompactionItemOf(part)).toEqual(item);
    expect(openAICompactionItemOf(withReadableCopy(part, '## Goal\nship'))).toEqual(item);
    expect(nativeCompactionOf(withReadableCopy(part, 'x'))).toEqual({
      vendor: 'openai',
      readable: 'x',
      fields: { id: 'cmp_1', encrypted_content: 'gAAAA-opaque', created_by: 'resp_9' },
    });
  });

  it('reads an Anthropic compaction block as the Anthropic adapter stores it', () => {
    const [, assistant] = fromAnthropic([
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: [{ type: 'compaction', content: 'summary', encrypted_content: 'e', signature: 's' }],
      },
    ]);
    expect(nativeCompactionOf(assistant!.parts[0]!)).toEqual({
      vendor: 'anthropic',
      readable: 'summary',
      fields: { encrypted_content: 'e', signature: 's' },
    });
    expect(openAICompactionItemOf(assistant!.parts[0]!)).toBeUndefined();
  });

  it('goes to Anthropic and to chat as its readable copy only, never with the encrypted fields', () => {
    const wire = toAnthropic(conversation('## Goal\nship it')).messages;
    expect(wire[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: '## Goal\nship it' }] });
    expect(toOpenAI(conversation('## Goal\nship it'))[1]).toEqual({ role: 'assistant', content: '## Goal\nship it' });
  });

  it('says plainly that there is no readable copy rather than sending an empty block', () => {
    expect(toAnthropic(conversation('')).messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: NO_READABLE_COPY }],
    });
    expect(toOpenAI(conversation(''))[1]).toEqual({ role: 'assistant', content: NO_READABLE_COPY });
  });
});
