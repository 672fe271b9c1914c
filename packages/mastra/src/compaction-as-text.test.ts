import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { withUnsignedCompactionAsText } from './compaction-as-text.js';

describe('withUnsignedCompactionAsText', () => {
  const summary = {
    type: 'text' as const,
    text: '## Goal\nship it',
    providerOptions: { anthropic: { type: 'compaction' } },
  };
  const tail: LanguageModelV4Prompt = [{ role: 'user', content: [{ type: 'text', text: 'go on' }] }];

  it('opens the conversation with an unsigned block as user text, the other parts and messages kept as they are', () => {
    const reply = { role: 'assistant' as const, content: [summary, { type: 'text' as const, text: 'done' }] };
    const prompt: LanguageModelV4Prompt = [reply, ...tail];
    const sent = withUnsignedCompactionAsText(prompt);
    expect(sent).toEqual([
      { role: 'user', content: [{ type: 'text', text: '## Goal\nship it' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
      tail[0],
    ]);
    expect(sent[2]).toBe(tail[0]);
    expect(prompt[0]).toBe(reply);
  });

  it('leaves a signed block alone (@ai-sdk/anthropic adds its beta itself)', () => {
    const signed = { ...summary, providerOptions: { anthropic: { type: 'compaction', signature: 'sig' } } };
    const prompt: LanguageModelV4Prompt = [{ role: 'assistant', content: [signed] }, ...tail];
    expect(withUnsignedCompactionAsText(prompt)).toEqual(prompt);
  });
});
